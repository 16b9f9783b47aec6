// exp of the 50-digit scalar (solutions/block/mpfr_exp.cpp): mpfr_exp's correctly rounded bits,
// and the tables decide nearly every input themselves (the speed the 50-digit forward needs).
#include "solutions/block/attention.hpp"
#include "solutions/block/ffn.hpp"
#include "solutions/block/real.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using blockcheck::Mpfr50;

namespace {

Mpfr50 exp_of(const Mpfr50& a) {
    using std::exp;
    return exp(a);  // as the block's softmax and SiLU call it
}

Mpfr50 mpfr_exp_of(const Mpfr50& a) {
    Mpfr50 y;
    mpfr_exp(y.backend().data(), a.backend().data(), MPFR_RNDN);
    return y;
}

bool same_bits(const Mpfr50& a, const Mpfr50& b) {
    return mpfr_equal_p(a.backend().data(), b.backend().data()) ||
           (mpfr_nan_p(a.backend().data()) && mpfr_nan_p(b.backend().data()));
}

// Random 168-bit numbers of magnitudes 2^-60 .. 2^24, both signs, and the integers -99 .. 99.
std::vector<Mpfr50> sample_inputs(std::size_t count) {
    std::mt19937_64 random(20261206);
    gmp_randstate_t state;
    gmp_randinit_default(state);
    gmp_randseed_ui(state, 43);
    std::vector<Mpfr50> xs(count);
    for (std::size_t i = 0; i < count; ++i) {
        mpfr_ptr x = xs[i].backend().data();
        mpfr_urandomb(x, state);
        mpfr_mul_2si(x, x, static_cast<long>(random() % 85) - 60, MPFR_RNDN);
        if (random() & 1) mpfr_neg(x, x, MPFR_RNDN);
        if (i % 100 == 0) mpfr_set_si(x, static_cast<long>(random() % 199) - 99, MPFR_RNDN);
    }
    gmp_randclear(state);
    return xs;
}

}  // namespace

TEST_CASE("exp of Mpfr50 gives mpfr_exp's bits, correctly rounded") {
    for (const Mpfr50& x : sample_inputs(4000)) {
        INFO(x.str(60));
        CHECK(same_bits(exp_of(x), mpfr_exp_of(x)));
    }
    // The edges: zero, the reduction's steps (multiples of ln 2 / 2^18, and a last bit off them),
    // the range the tables take (|x| < 2^20) and beyond it, overflow, underflow, NaN.
    const Mpfr50 ln2 = log(Mpfr50(2));
    std::vector<Mpfr50> edges = {Mpfr50(0), -Mpfr50(0), Mpfr50(1), Mpfr50(-1), ldexp(Mpfr50(1), -200),
                                 ldexp(ln2, -19), -ldexp(ln2, -19), ln2 * 37, ln2 * -1234567,
                                 ldexp(Mpfr50(1), 20) - 1, -ldexp(Mpfr50(1), 20) + 1, ldexp(Mpfr50(1), 20),
                                 -ldexp(Mpfr50(1), 20), Mpfr50(-700), Mpfr50(700), Mpfr50("1e12"), Mpfr50("-1e12"),
                                 std::numeric_limits<Mpfr50>::infinity(), -std::numeric_limits<Mpfr50>::infinity(),
                                 std::numeric_limits<Mpfr50>::quiet_NaN()};
    for (long m : {1L, 63L, 64L, 4095L, 4096L, 262143L, 262144L, -1L, -262145L}) {
        const Mpfr50 step = ldexp(ln2, -18) * m;
        edges.push_back(step);
        edges.push_back(step + ldexp(abs(step), -160));
        edges.push_back(step - ldexp(abs(step), -160));
    }
    for (const Mpfr50& x : edges) {
        INFO(x.str(60));
        CHECK(same_bits(exp_of(x), mpfr_exp_of(x)));
    }
    CHECK(exp_of(Mpfr50(0)) == 1);
    CHECK(exp_of(-std::numeric_limits<Mpfr50>::infinity()) == 0);
}

TEST_CASE("the tables decide exp themselves for nearly every input under 2^20, never differently") {
    std::size_t decided = 0, within = 0;
    for (const Mpfr50& x : sample_inputs(4000)) {
        if (abs(x) >= 1048576) continue;
        ++within;
        Mpfr50 y;
        if (!blockcheck::exp_by_tables(y.backend().data(), x.backend().data())) continue;
        ++decided;
        INFO(x.str(60));
        CHECK(same_bits(y, mpfr_exp_of(x)));
    }
    CHECK(within > 3800);
    CHECK(decided >= within - 2);  // about one in 2^17 is left to mpfr_exp
    // Outside their range they decline, and leave y as it was.
    Mpfr50 y(5);
    CHECK_FALSE(blockcheck::exp_by_tables(y.backend().data(), Mpfr50(0).backend().data()));
    CHECK_FALSE(blockcheck::exp_by_tables(y.backend().data(), Mpfr50(-2000000).backend().data()));
    CHECK(y == 5);
}

TEST_CASE("the block's softmax and SiLU at 50 digits take it: the same bits as through mpfr_exp") {
    const std::vector<Mpfr50> scores = {Mpfr50("0.25"), Mpfr50("-1.5"), Mpfr50("3.125"), Mpfr50("0.1")};
    const auto weights = blockcheck::softmax<Mpfr50>(scores);
    Mpfr50 sum(0);
    std::vector<Mpfr50> expected;
    for (const Mpfr50& s : scores) sum += expected.emplace_back(mpfr_exp_of(s - Mpfr50("3.125")));
    for (std::size_t j = 0; j < scores.size(); ++j) CHECK(same_bits(weights[j], expected[j] / sum));
    const Mpfr50 a("-0.7");
    CHECK(same_bits(blockcheck::silu(a), a / (Mpfr50(1) + mpfr_exp_of(-a))));
}
