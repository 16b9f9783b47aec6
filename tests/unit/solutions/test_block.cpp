// The block's mechanisms: the chapter's worked numbers and the properties they rest on,
// each over every scalar type.
#include "block_testing.hpp"
#include "solutions/block/counts.hpp"

#include <doctest/doctest.h>

using namespace blockcheck;
using namespace blockcheck::testing;

#define SCALARS double, Mpfr50, Mpfr100

namespace {
template <class T>
T real(const char* text) {
    return parse_real<T>(text);
}
template <class T>
void check_close(const T& got, const char* expected) {
    INFO(to_decimal(got), " vs ", std::string(expected));
    CHECK(relative_difference(got, real<T>(expected)) < tolerance<T>());
}
}  // namespace

TEST_CASE_TEMPLATE("table 25.1: a quarter turn per position gives the dot products 1, 0, 0, -1", T, SCALARS) {
    const Rope<T> quarter = fixed_angle_rope(pi<T>() / 2);
    const Vector<T> q{T(1), T(0)}, k{T(1), T(0)};
    const int rows[4][2] = {{0, 0}, {0, 1}, {1, 2}, {0, 2}};
    const int dots[4] = {1, 0, 0, -1};
    for (int r = 0; r < 4; ++r) {
        Vector<T> rq = rope_rotate(q, quarter, T(rows[r][0])), rk = rope_rotate(k, quarter, T(rows[r][1]));
        CHECK(relative_difference(dot<T>(rq, rk), T(dots[r])) < tolerance<T>());
    }
    SUBCASE("a quarter turn sends [x, y] to [-y, x]") {
        Vector<T> turned = rope_rotate(Vector<T>{T(3), T(5)}, quarter, T(1));
        CHECK(relative_difference(turned[0], T(-5)) < tolerance<T>());
        CHECK(relative_difference(turned[1], T(3)) < tolerance<T>());
    }
}

TEST_CASE_TEMPLATE("example 25.2: RMSNorm of [3, 4] and [4, 5]; LayerNorm maps both to [-1, 1]", T, SCALARS) {
    const Vector<T> ones{T(1), T(1)}, zeros{T(0), T(0)}, a{T(3), T(4)}, b{T(4), T(5)};
    check_close(root_mean_square<T>(a), "3.53553390593273762200422181052424519642417968844237018294169934497683119615526759712596883581910393183753");
    Vector<T> ra = rms_norm<T>(a, ones, T(0)), rb = rms_norm<T>(b, ones, T(0));
    check_close(ra[0], "0.848528137423857029281013234525818847141803125226168843906007842794439487077264223310232520596584943641008");
    check_close(ra[1], "1.13137084989847603904135097936775846285573750030155845854134379039258598276968563108031002746211325818801");
    check_close(rb[0], "0.88345220859877235381207884555942111346849994771677466112992597366035687617229846179365470035034057818983");
    check_close(rb[1], "1.10431526074846544226509855694927639183562493464596832641240746707544609521537307724206837543792572273729");
    for (const Vector<T>& row : {a, b}) {
        Vector<T> ln = layer_norm<T>(row, ones, zeros, T(0));
        CHECK(relative_difference(ln[0], T(-1)) < tolerance<T>());
        CHECK(relative_difference(ln[1], T(1)) < tolerance<T>());
    }
}

TEST_CASE_TEMPLATE("RMSNorm of an all-zero row with epsilon 0 is a typed error, never NaN", T, SCALARS) {
    const Vector<T> zero{T(0), T(0)}, ones{T(1), T(1)};
    CHECK_THROWS_AS(rms_norm<T>(zero, ones, T(0)), UndefinedNorm);
    CHECK_THROWS_WITH(rms_norm<T>(zero, ones, T(0)), doctest::Contains("all-zero row"));
    Vector<T> with_eps = rms_norm<T>(zero, ones, real<T>("0.000001"));
    CHECK(with_eps[0] == T(0));
}

TEST_CASE_TEMPLATE("RMSNorm is scale invariant with epsilon 0", T, SCALARS) {
    SeededDyadic r(7);
    for (int trial = 0; trial < 20; ++trial) {
        Vector<T> x(12), gains = r.gains<T>(12);
        for (T& v : x) v = r.next<T>(40) + T(1) / T(1024);
        const T scale = T(trial + 1) * T(3) / T(7);
        Vector<T> scaled = x;
        for (T& v : scaled) v *= scale;
        Vector<T> a = rms_norm<T>(x, gains, T(0)), b = rms_norm<T>(scaled, gains, T(0));
        for (std::size_t i = 0; i < a.size(); ++i) CHECK(relative_difference(a[i], b[i]) < tolerance<T>());
    }
}

TEST_CASE_TEMPLATE("example 25.3: the two-dimensional SwiGLU gives [0.655293, -0.806824]", T, SCALARS) {
    const Matrix<T> x = matrix_from_rows<T>({{T(1), T(-1)}});
    const Matrix<T> w_gate = matrix_from_rows<T>({{T(1), T(0)}, {T(0), T(1)}});
    const Matrix<T> w_up = matrix_from_rows<T>({{T(2), T(0)}, {T(0), T(-3)}});
    const Matrix<T> w_down = matrix_from_rows<T>({{T(1), T(0)}, {T(1), T(1)}});
    check_close(silu(T(1)), "0.731058578630004879251159241821836274365144640165056519276365907919040453070204639387474532075981245292174");
    Matrix<T> y = swiglu_ffn(x, w_gate, w_up, w_down);
    check_close(y(0, 0), "0.655292893150024396255796209109181371825723200825282596381829539595202265351023196937372660379906226460872");
    check_close(y(0, 1), "-0.806824264109985362246522274534491176904566079504830442170902276242878640789386081837576403772056264123477");
    SUBCASE("ReLU zeroes the negative coordinate that SiLU keeps small") {
        CHECK(relu(T(-1)) == T(0));
        CHECK(silu(T(-1)) < T(0));
    }
}

TEST_CASE("table 25.2 and the KV cache: parameter counts") {
    CHECK(relu_ffn_parameters(12, 48) == 1152);
    CHECK(swiglu_ffn_parameters(12, 48) == 1728);
    CHECK(swiglu_ffn_parameters(12, 32) == 1152);
    CHECK(swiglu_width_matching_relu(48) == 32);
    CHECK(swiglu_width_matching_relu(96) == 64);
    CHECK(llama_ffn_hidden(4096, 256) == 11008);
    const BlockParameters p = block_parameters(12, 3, 3, 4, 32);
    CHECK(p.attention() == 4 * 12 * 12);
    CHECK(p.ffn() == 1152);
    CHECK(p.total() == 576 + 1152 + 24);
    // 2 x layers x kv_heads x head_dim x sequence x batch x bytes
    CHECK(kv_cache_bytes(32, 8, 128, 4096, 1, 2) == 536870912ull);
    CHECK(kv_cache_bytes(32, 32, 128, 4096, 1, 2) == 4 * kv_cache_bytes(32, 8, 128, 4096, 1, 2));
}

TEST_CASE_TEMPLATE("RoPE: (R_m q) . (R_n k) = q . (R_(n-m) k) for every frequency", T, SCALARS) {
    const Rope<T> rope = make_rope(T(10000), 16, RopeScaling<T>{}, RopeLayout::interleaved);
    SeededDyadic r(11);
    for (int trial = 0; trial < 25; ++trial) {
        Vector<T> q(16), k(16);
        for (T& v : q) v = r.next<T>(40);
        for (T& v : k) v = r.next<T>(40);
        const long m = 17 * trial, n = 5 + 31 * trial;
        const T lhs = dot<T>(rope_rotate(q, rope, T(m)), rope_rotate(k, rope, T(n)));
        const T rhs = dot<T>(q, rope_rotate(k, rope, T(n - m)));
        CHECK(relative_difference(lhs, rhs) < tolerance<T>() * T(100));
    }
}

TEST_CASE_TEMPLATE("RoPE: linear scaling by s equals no scaling at positions divided by s", T, SCALARS) {
    const T s = real<T>("12.5");
    const Rope<T> linear = make_rope(T(10000), 8, RopeScaling<T>{RopeScalingType::linear, s}, RopeLayout::half);
    const Rope<T> plain = make_rope(T(10000), 8, RopeScaling<T>{}, RopeLayout::half);
    const Vector<T> x{T(1), T(2), T(-1), T(3), T(0), T(-2), T(1), T(1)};
    for (long p : {1L, 8L, 100L, 4097L}) {
        Vector<T> a = rope_rotate(x, linear, T(p)), b = rope_rotate(x, plain, T(p) / s);
        for (std::size_t i = 0; i < x.size(); ++i) CHECK(relative_difference(a[i], b[i]) < tolerance<T>() * T(10));
    }
}

TEST_CASE_TEMPLATE("RoPE: NTK scaling keeps the fastest pair and slows the slowest by exactly s", T, SCALARS) {
    for (std::size_t d : {4u, 8u, 128u}) {
        const T s(8);
        const Rope<T> ntk = make_rope(T(10000), d, RopeScaling<T>{RopeScalingType::ntk, s}, RopeLayout::interleaved);
        const Rope<T> plain = make_rope(T(10000), d, RopeScaling<T>{}, RopeLayout::interleaved);
        CHECK(ntk.inverse_frequencies.front() == plain.inverse_frequencies.front());
        const T ratio = plain.inverse_frequencies.back() / ntk.inverse_frequencies.back();
        CHECK(relative_difference(ratio, s) < tolerance<T>());
    }
}

TEST_CASE_TEMPLATE("softmax cannot overflow", T, SCALARS) {
    const Vector<T> scores{T(10000), T(10001), T(-10000)};
    Vector<T> w = softmax<T>(scores);
    T sum = w[0] + w[1] + w[2];
    CHECK(relative_difference(sum, T(1)) < tolerance<T>());
    CHECK(w[1] > w[0]);
    CHECK(w[2] >= T(0));
}

TEST_CASE_TEMPLATE("attention is causal: later inputs never change earlier outputs", T, SCALARS) {
    const BlockConfig<T> c = small_config<T>(4, 2, 6);
    const BlockWeights<T> w = seeded_weights(c, 3);
    SeededDyadic r(5);
    Matrix<T> x = r.matrix<T>(5, 12, 40), changed = x;
    for (std::size_t col = 0; col < 12; ++col) changed(3, col) += T(1), changed(4, col) -= T(2);
    Matrix<T> a = block_forward(c, w, x), b = block_forward(c, w, changed);
    for (std::size_t t = 0; t < 3; ++t)
        for (std::size_t col = 0; col < 12; ++col) CHECK(a(t, col) == b(t, col));
    CHECK(a(3, 0) != b(3, 0));
}

TEST_CASE_TEMPLATE("GQA and MQA equal MHA with each key/value head repeated over its group", T, SCALARS) {
    for (std::size_t kv_heads : {1u, 2u, 4u}) {
        const BlockConfig<T> grouped = small_config<T>(4, kv_heads, 4);
        const BlockWeights<T> w = seeded_weights(grouped, 9);
        BlockConfig<T> mha = grouped;
        mha.kv_heads = 4;
        BlockWeights<T> repeated = w;
        repeated.k = repeated.v = Matrix<T>(12, 16);
        for (std::size_t h = 0; h < 4; ++h)
            for (std::size_t c = 0; c < 4; ++c)
                for (std::size_t i = 0; i < 12; ++i) {
                    repeated.k(i, h * 4 + c) = w.k(i, grouped.heads().kv_head_of(h) * 4 + c);
                    repeated.v(i, h * 4 + c) = w.v(i, grouped.heads().kv_head_of(h) * 4 + c);
                }
        Matrix<T> x = SeededDyadic(21).matrix<T>(6, 12, 40);
        CHECK(max_relative_difference(block_forward(grouped, w, x), block_forward(mha, repeated, x)) < tolerance<T>());
    }
}

TEST_CASE_TEMPLATE("the two pairings agree when the Q/K weight columns are permuted to match", T, SCALARS) {
    const BlockConfig<T> inter = small_config<T>(2, 2, 6, RopeLayout::interleaved);
    BlockConfig<T> half = inter;
    half.rope_layout = RopeLayout::half;
    const BlockWeights<T> w = seeded_weights(inter, 13);
    BlockWeights<T> permuted = w;
    // half-layout coordinate i holds interleaved 2i, and i + d/2 holds 2i + 1
    const std::size_t d = 6;
    for (const auto& [from, to] : {std::pair{&w.q, &permuted.q}, std::pair{&w.k, &permuted.k}})
        for (std::size_t h = 0; h < 2; ++h)
            for (std::size_t i = 0; i < d / 2; ++i)
                for (std::size_t row = 0; row < 12; ++row) {
                    (*to)(row, h * d + i) = (*from)(row, h * d + 2 * i);
                    (*to)(row, h * d + i + d / 2) = (*from)(row, h * d + 2 * i + 1);
                }
    Matrix<T> x = SeededDyadic(17).matrix<T>(5, 12, 40);
    CHECK(max_relative_difference(block_forward(inter, w, x, 40), block_forward(half, permuted, x, 40)) <
          tolerance<T>());
}

TEST_CASE_TEMPLATE("decoding one position at a time with the KV cache equals the full forward", T, SCALARS) {
    const BlockConfig<T> c = small_config<T>(4, 2, 4, RopeLayout::half, RopeScaling<T>{RopeScalingType::ntk, T(4)});
    const BlockWeights<T> w = seeded_weights(c, 23);
    const Matrix<T> x = SeededDyadic(29).matrix<T>(6, 12, 40);
    const long start = 100;
    const Matrix<T> full = block_forward(c, w, x, start);
    KvCache<T> cache;
    for (std::size_t t = 0; t < x.rows; ++t) {
        Matrix<T> row(1, 12);
        std::copy(x.row(t).begin(), x.row(t).end(), row.row(0).begin());
        Matrix<T> y = block_step(c, w, row, start + static_cast<long>(t), cache);
        for (std::size_t col = 0; col < 12; ++col) CHECK(relative_difference(y(0, col), full(t, col)) < tolerance<T>());
    }
    CHECK(cache.size() == 6);
}

TEST_CASE("50 digits agree with 100 digits to at least 45 digits") {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        auto c100 = small_config<Mpfr100>(4, seed == 3 ? 1 : 2, 6, seed == 2 ? RopeLayout::half : RopeLayout::interleaved,
                                          RopeScaling<Mpfr100>{RopeScalingType::linear, Mpfr100(4)});
        auto c50 = small_config<Mpfr50>(c100.query_heads, c100.kv_heads, 6, c100.rope_layout,
                                        RopeScaling<Mpfr50>{RopeScalingType::linear, Mpfr50(4)});
        Matrix<Mpfr100> y100 = block_forward(c100, seeded_weights(c100, seed), SeededDyadic(seed).matrix<Mpfr100>(5, 12, 40), 5000);
        Matrix<Mpfr50> y50 = block_forward(c50, seeded_weights(c50, seed), SeededDyadic(seed).matrix<Mpfr50>(5, 12, 40), 5000);
        Mpfr100 worst(0);
        for (std::size_t i = 0; i < y50.values.size(); ++i)
            worst = std::max(worst, relative_difference(Mpfr100(y50.values[i]), y100.values[i]));
        INFO("worst relative difference ", worst.str(3));
        CHECK(worst < parse_real<Mpfr100>("1e-45"));
    }
}

TEST_CASE("double against 50 digits on the modern configuration, in double epsilons") {
    // A forward is a few hundred roundings deep (12-term dots, a softmax, two RMSNorms, 32-term
    // dots); each loses at most half an epsilon relative to its operands, and cancellation in
    // the residual sums can raise the relative error of a small output by the ratio of the
    // operands to the result. 1e4 epsilons (2.2e-12) bounds that with room; the measured worst
    // is printed.
    auto c50 = small_config<Mpfr50>(3, 3, 4);
    c50.ffn_hidden_size = 32;
    auto cd = small_config<double>(3, 3, 4);
    cd.ffn_hidden_size = 32;
    Matrix<Mpfr50> y50 = block_forward(c50, seeded_weights(c50, 31), SeededDyadic(37).matrix<Mpfr50>(16, 12, 40));
    Matrix<double> yd = block_forward(cd, seeded_weights(cd, 31), SeededDyadic(37).matrix<double>(16, 12, 40));
    double worst = 0;
    for (std::size_t i = 0; i < yd.values.size(); ++i) {
        Mpfr50 err = relative_difference(Mpfr50(yd.values[i]), y50.values[i]);
        worst = std::max(worst, err.convert_to<double>() / std::numeric_limits<double>::epsilon());
    }
    MESSAGE("worst error of double: ", worst, " epsilons");
    CHECK(worst < 1e4);
}

TEST_CASE("the block's trace carries what its readers use: each head's weights and both projections") {
    const BlockConfig<double> c = small_config<double>(4, 2, 4);
    const BlockWeights<double> w = seeded_weights(c, 41);
    const Matrix<double> x = SeededDyadic(43).matrix<double>(3, 12, 40);
    Trace<double> trace;
    const Matrix<double> y = block_forward(c, w, x, 7, &trace);
    // N Q K V Q_rotated K_rotated, 4 heads' weights, heads attention_output R M gate up hidden down output
    CHECK(trace.size() == 19);
    CHECK(max_relative_difference(trace.at("output"), y) == 0.0);
    CHECK(max_relative_difference(trace.at("attention_output"), matmul(trace.at("heads"), w.o)) == 0.0);
    CHECK(max_relative_difference(trace.at("down"), matmul(trace.at("hidden"), w.down)) == 0.0);
    CHECK(max_relative_difference(add(trace.at("R"), trace.at("down")), y) == 0.0);  // Y = R + FFN(M)
    for (std::size_t h = 0; h < 4; ++h) {
        const Matrix<double>& weights = trace.at("attention_weights/" + std::to_string(h));  // [T, T]
        REQUIRE(weights.rows == 3);
        REQUIRE(weights.cols == 3);
        for (std::size_t t = 0; t < 3; ++t) {
            double sum = 0;
            for (std::size_t j = 0; j < 3; ++j) sum += weights(t, j);
            CHECK(sum == doctest::Approx(1.0).epsilon(1e-14));
            for (std::size_t j = t + 1; j < 3; ++j) CHECK(weights(t, j) == 0.0);
        }
    }
    CHECK_THROWS_WITH_AS(trace.at("attention_weights/4"), "the block's trace has no attention_weights/4", std::logic_error);
}

TEST_CASE("record hands back the value it records, and records nothing without a trace") {
    const Matrix<double> m = SeededDyadic(5).matrix<double>(2, 3, 40);
    Trace<double> trace;
    CHECK(max_relative_difference(record(&trace, "m", m), m) == 0.0);
    CHECK(max_relative_difference(trace.at("m"), m) == 0.0);
    CHECK(max_relative_difference(record<double>(nullptr, "m", m), m) == 0.0);
    CHECK(trace.size() == 1);
}
