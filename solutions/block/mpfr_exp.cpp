// exp of the block's 50-digit scalar (declared in solutions/block/real.hpp): the same correctly
// rounded bits as MPFR's mpfr_exp, at about twice its speed at this precision, where the 50-digit
// forward spends a third of its time (softmax makes one a score, SiLU one a gate value).
//
// exp(x) = 2^k * 2^(a/64) * 2^(b/64^2) * 2^(c/64^3) * exp(r), with x = (k + a/64 + b/64^2 +
// c/64^3) ln 2 + r and |r| <= ln 2 / 2^19 < 2^-19.5: three tables of 64 powers of two and a
// Taylor polynomial of degree 8 in r (its first omitted term < 2^-194), every step on three limbs
// (191 bits), where MPFR's + and - take their fast paths (all operands of one precision under 192
// bits), and no GMP integer is allocated. Then Ziv's test: the approximation's relative error is under 9 roundings of 2^-191 (three
// table entries, three products by them, Horner's last addition, r's own, the omitted terms and
// those of order r or smaller), so below 2^-187.8; where that cannot decide the rounding to 168
// bits (about one call in 2^17), mpfr_exp decides. Either way the result is exp(x) correctly
// rounded, the bits mpfr_exp returns.
#include "solutions/block/real.hpp"

#include <cmath>
#include <mpfr.h>

namespace {

using blockcheck::Mpfr50;

constexpr mpfr_prec_t exp_work_bits = 191;       // three limbs
constexpr mpfr_prec_t exp_reduction_bits = 256;  // x - m ln2/2^18 without losing r's digits
constexpr int exp_degree = 8;
constexpr int exp_levels = 3;                    // tables of 2^(j/64), 2^(j/64^2), 2^(j/64^3)
constexpr int exp_step_bits = 6 * exp_levels;    // x reduced by multiples of ln 2 / 2^18
constexpr double exp_steps_per_unit = 262144 / 0.693147180559945309417232121458;  // 2^18 / ln 2
constexpr mpfr_exp_t exp_largest_exponent = 20;  // |x| < 2^20: |m| < 2^39 fits a long

// An MPFR number of `Bits` bits on the stack (no allocation in the hot loop).
template <mpfr_prec_t Bits>
struct StackMpfr {
    mp_limb_t limbs[(Bits + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS];
    mpfr_t value;
    StackMpfr() {
        mpfr_custom_init(limbs, Bits);
        mpfr_custom_init_set(value, MPFR_ZERO_KIND, 0, Bits, limbs);
    }
    StackMpfr(const StackMpfr&) = delete;
    StackMpfr& operator=(const StackMpfr&) = delete;
};

// ln 2 / 2^18, 2^(j / 64^(level + 1)) for j in 0..63, and 1/n! for n in 0..8, computed once
// (correctly rounded by MPFR: each within half a unit of its last place).
struct ExpTables {
    mpfr_t ln2_step;
    mpfr_t powers[exp_levels][64], inverse_factorial[exp_degree + 1];

    ExpTables() {
        mpfr_init2(ln2_step, exp_reduction_bits);
        mpfr_const_log2(ln2_step, MPFR_RNDN);
        mpfr_div_2ui(ln2_step, ln2_step, exp_step_bits, MPFR_RNDN);
        StackMpfr<64> exponent;
        for (int level = 0; level < exp_levels; ++level)
            for (unsigned long j = 0; j < 64; ++j) {
                mpfr_init2(powers[level][j], exp_work_bits);
                mpfr_set_ui_2exp(exponent.value, j, -6 * (level + 1), MPFR_RNDN);
                mpfr_exp2(powers[level][j], exponent.value, MPFR_RNDN);
            }
        unsigned long factorial = 1;  // 8! < 2^16
        for (unsigned long n = 0; n <= exp_degree; ++n) {
            if (n > 0) factorial *= n;
            mpfr_init2(inverse_factorial[n], exp_work_bits);
            mpfr_set_ui(exponent.value, factorial, MPFR_RNDN);
            mpfr_ui_div(inverse_factorial[n], 1, exponent.value, MPFR_RNDN);
        }
    }
    ~ExpTables() {
        mpfr_clear(ln2_step);
        for (auto& level : powers)
            for (auto& x : level) mpfr_clear(x);
        for (auto& x : inverse_factorial) mpfr_clear(x);
    }
    ExpTables(const ExpTables&) = delete;
    ExpTables& operator=(const ExpTables&) = delete;
};

const ExpTables& exp_tables() {
    static const ExpTables tables;
    return tables;
}

}  // namespace

namespace blockcheck {

bool exp_by_tables(mpfr_ptr y, mpfr_srcptr x) {
    if (!mpfr_number_p(x) || mpfr_zero_p(x) || mpfr_get_exp(x) > exp_largest_exponent || mpfr_get_prec(y) > 170)
        return false;
    const ExpTables& t = exp_tables();
    // m = round(x 2^18 / ln 2) = 2^18 k + 2^12 a + 2^6 b + c
    const long m = std::lround(mpfr_get_d(x, MPFR_RNDN) * exp_steps_per_unit);
    const long k = m >> exp_step_bits;  // floor: a, b and c stay in 0..63
    // r = x - m ln2 / 2^18
    StackMpfr<exp_reduction_bits> multiple;
    StackMpfr<exp_work_bits> r, p;
    mpfr_mul_si(multiple.value, t.ln2_step, m, MPFR_RNDN);
    mpfr_sub(r.value, x, multiple.value, MPFR_RNDN);
    // exp(r) ~ sum_{n <= 8} r^n / n!, by Horner's rule
    mpfr_set(p.value, t.inverse_factorial[exp_degree], MPFR_RNDN);
    for (int n = exp_degree - 1; n >= 0; --n) {
        mpfr_mul(p.value, p.value, r.value, MPFR_RNDN);
        mpfr_add(p.value, p.value, t.inverse_factorial[n], MPFR_RNDN);
    }
    for (int level = 0; level < exp_levels; ++level) {
        const unsigned long digit = static_cast<unsigned long>(m) >> (6 * (exp_levels - 1 - level)) & 63u;
        mpfr_mul(p.value, p.value, t.powers[level][digit], MPFR_RNDN);
    }
    // |error| < 2^-187.8 |p| <= 2^(EXP(p) - 187.8); 186 leaves more than a bit to spare
    if (!mpfr_can_round(p.value, exp_work_bits - 5, MPFR_RNDN, MPFR_RNDZ, mpfr_get_prec(y) + 1)) return false;
    mpfr_set(y, p.value, MPFR_RNDN);
    mpfr_mul_2si(y, y, k, MPFR_RNDN);  // exact: far inside MPFR's exponent range
    return true;
}

}  // namespace blockcheck

namespace boost::multiprecision {

// exp(a), correctly rounded to Mpfr50's precision (to nearest): the bits mpfr_exp gives.
Mpfr50 exp(const Mpfr50& a) {
    Mpfr50 y;
    mpfr_srcptr x = a.backend().data();
    if (mpfr_zero_p(x)) return Mpfr50(1);  // exact (the softmax's largest score, every row)
    if (!blockcheck::exp_by_tables(y.backend().data(), x)) mpfr_exp(y.backend().data(), x, MPFR_RNDN);
    return y;
}

}  // namespace boost::multiprecision
