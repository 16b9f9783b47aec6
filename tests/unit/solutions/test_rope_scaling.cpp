// The RoPE scalings in use (Hugging Face's rope_type names): each one's defining property over
// many inputs, at every precision.
#include "block_testing.hpp"

#include <doctest/doctest.h>

using namespace blockcheck;
using namespace blockcheck::testing;

namespace {

#define SCALARS double, Mpfr50, Mpfr100

// |a / b - 1|
template <class T>
T ratio_error(const T& a, const T& b) {
    using std::abs;
    return abs(a / b - T(1));
}

template <class T>
RopeScaling<T> scaling(RopeScalingType type, const T& factor, std::size_t original_context) {
    RopeScaling<T> s;
    s.type = type;
    s.factor = factor;
    s.original_context = original_context;
    return s;
}

}  // namespace

TEST_CASE_TEMPLATE("llama3 keeps high-frequency pairs, divides low-frequency ones by s, blends between", T,
                   SCALARS) {
    int kept = 0, divided = 0, blended = 0;
    for (std::size_t d : {8u, 32u, 64u, 128u})
        for (long theta : {10000L, 500000L})
            for (std::size_t context : {64u, 1024u, 8192u})
                for (long s : {2L, 8L, 32L}) {
                    RopeScaling<T> sc = scaling(RopeScalingType::llama3, T(s), context);
                    sc.low_freq_factor = T(1), sc.high_freq_factor = T(4);
                    const Rope<T> plain = make_rope(T(theta), d, RopeScaling<T>{}, RopeLayout::half);
                    const Rope<T> llama = make_rope(T(theta), d, sc, RopeLayout::half);
                    for (std::size_t i = 0; i < d / 2; ++i) {
                        const T f = plain.inverse_frequencies[i], g = llama.inverse_frequencies[i];
                        const T wavelength = T(2) * pi<T>() / f, L0(static_cast<long>(context));
                        if (wavelength < L0 / T(4)) {
                            CHECK(g == f);
                            ++kept;
                        } else if (wavelength > L0) {
                            CHECK(ratio_error(g, f / T(s)) < tolerance<T>());
                            ++divided;
                        } else {
                            CHECK(g >= f / T(s));
                            CHECK(g <= f);
                            ++blended;
                        }
                    }
                }
    CHECK(kept > 100);
    CHECK(divided > 100);
    CHECK(blended > 10);
}

TEST_CASE_TEMPLATE("llama3's blend is continuous at both band edges", T, SCALARS) {
    // At wavelength L0/low_freq_factor the blend gives inv/s, at L0/high_freq_factor inv itself:
    // choose theta so that pair 1 of d = 4 has exactly those wavelengths.
    const std::size_t context = 8192;
    for (const T edge_wavelength : {T(8192), T(2048)}) {
        // inv_1 = theta^(-1/2) = 2 pi / wavelength  ->  theta = (wavelength / 2 pi)^2
        const T theta = (edge_wavelength / (T(2) * pi<T>())) * (edge_wavelength / (T(2) * pi<T>()));
        RopeScaling<T> sc = scaling(RopeScalingType::llama3, T(8), context);
        sc.low_freq_factor = T(1), sc.high_freq_factor = T(4);
        const T f = make_rope(theta, 4, RopeScaling<T>{}, RopeLayout::half).inverse_frequencies[1];
        const T g = make_rope(theta, 4, sc, RopeLayout::half).inverse_frequencies[1];
        const T expected = edge_wavelength == T(8192) ? f / T(8) : f;
        CHECK(ratio_error(g, expected) < tolerance<T>() * T(100));
    }
}

TEST_CASE_TEMPLATE("YaRN keeps pairs up to the ramp's low end and divides those past its high end by s", T,
                   SCALARS) {
    using std::ceil;
    using std::floor;
    int kept = 0, divided = 0, ramped = 0;
    for (std::size_t d : {16u, 64u, 128u})
        for (std::size_t context : {2048u, 4096u, 32768u})
            for (long s : {2L, 4L, 40L}) {
                const T theta(10000);
                const RopeScaling<T> sc = scaling(RopeScalingType::yarn, T(s), context);
                const T low = std::max(floor(yarn_correction_dim(T(32), d, theta, context)), T(0));
                const T high = std::min(ceil(yarn_correction_dim(T(1), d, theta, context)), T(long(d) - 1));
                const Rope<T> plain = make_rope(theta, d, RopeScaling<T>{}, RopeLayout::half);
                const Rope<T> yarn = make_rope(theta, d, sc, RopeLayout::half);
                for (std::size_t i = 0; i < d / 2; ++i) {
                    const T f = plain.inverse_frequencies[i], g = yarn.inverse_frequencies[i];
                    const T index = T(static_cast<long>(i));
                    if (index <= low) {
                        CHECK(g == f);
                            ++kept;
                    } else if (index >= high) {
                        CHECK(ratio_error(g, f / T(s)) < tolerance<T>());
                            ++divided;
                    } else {
                        // linear between: g = f/s * r + f (1 - r) with r = (i - low) / (high - low)
                        const T r = (index - low) / (high - low);
                        CHECK(ratio_error(g, f / T(s) * r + f * (T(1) - r)) < tolerance<T>());
                            ++ramped;
                    }
                }
                // The attention factor 0.1 ln s + 1 multiplies cos and sin.
                using std::log;
                CHECK(ratio_error(yarn.attention_factor, parse_real<T>("0.1") * log(T(s)) + T(1)) < tolerance<T>());
                const RopeTurn<T> turn = rope_turn(yarn, T(1000));
                CHECK(ratio_error(turn.cos[1] * turn.cos[1] + turn.sin[1] * turn.sin[1],
                                  yarn.attention_factor * yarn.attention_factor) < tolerance<T>() * T(10));
            }
    CHECK(kept > 20);
    CHECK(divided > 20);
    CHECK(ramped > 20);
}

TEST_CASE_TEMPLATE("YaRN's ramp endpoints: the pair turning beta_fast times over L0 is the low end", T, SCALARS) {
    // pair index c(r) = d ln(L0 / (2 pi r)) / (2 ln theta) turns exactly r times over L0 positions.
    const std::size_t d = 128, context = 4096;
    const T theta(10000);
    for (const T rotations : {T(32), T(1)}) {
        const T c = yarn_correction_dim(rotations, d, theta, context);
        using std::pow;
        const T inv = pow(theta, -T(2) * c / T(long(d)));
        CHECK(ratio_error(inv * T(long(context)) / (T(2) * pi<T>()), rotations) < tolerance<T>() * T(10));
    }
    CHECK(yarn_ramp<T>(3, T(3), T(9)) == T(0));
    CHECK(yarn_ramp<T>(9, T(3), T(9)) == T(1));
    CHECK(yarn_ramp<T>(6, T(3), T(9)) == parse_real<T>("0.5"));
    CHECK(yarn_ramp<T>(0, T(3), T(9)) == T(0));
    CHECK(yarn_ramp<T>(60, T(3), T(9)) == T(1));
}

TEST_CASE_TEMPLATE("YaRN's attention factor from DeepSeek's two mscales, or as given", T, SCALARS) {
    using std::log;
    RopeScaling<T> sc = scaling(RopeScalingType::yarn, T(40), 4096);
    sc.mscale = T(1), sc.mscale_all_dim = T(1);
    CHECK(yarn_attention_factor(sc) == T(1));
    sc.mscale_all_dim = parse_real<T>("0.707");
    CHECK(ratio_error(yarn_attention_factor(sc),
                      (parse_real<T>("0.1") * log(T(40)) + T(1)) / (parse_real<T>("0.1") * parse_real<T>("0.707") * log(T(40)) + T(1))) < tolerance<T>());
    sc.attention_factor = parse_real<T>("1.25");
    CHECK(yarn_attention_factor(sc) == parse_real<T>("1.25"));
}

TEST_CASE_TEMPLATE("dynamic NTK is no scaling up to L0 and static NTK with s L / L0 - (s - 1) beyond", T, SCALARS) {
    for (std::size_t d : {8u, 64u, 128u})
        for (std::size_t context : {256u, 4096u})
            for (long s : {2L, 3L, 8L}) {
                const RopeScaling<T> sc = scaling(RopeScalingType::dynamic, T(s), context);
                const Rope<T> plain = make_rope(T(10000), d, RopeScaling<T>{}, RopeLayout::interleaved);
                for (std::size_t length : {std::size_t(1), context / 2, context})
                    CHECK(make_rope(T(10000), d, sc, RopeLayout::interleaved, length).inverse_frequencies ==
                          plain.inverse_frequencies);
                for (std::size_t length : {context + 1, 3 * context, 10 * context}) {
                    const T effective = T(s) * T(long(length)) / T(long(context)) - T(s - 1);
                    const Rope<T> dynamic = make_rope(T(10000), d, sc, RopeLayout::interleaved, length);
                    const Rope<T> ntk = make_rope(T(10000), d, RopeScaling<T>{RopeScalingType::ntk, effective},
                                                  RopeLayout::interleaved);
                    for (std::size_t i = 0; i < d / 2; ++i)
                        CHECK(ratio_error(dynamic.inverse_frequencies[i], ntk.inverse_frequencies[i]) <
                              tolerance<T>());
                }
                // At L = L0 (2s - 1) / s the effective factor is s itself: dynamic equals `ntk`.
                const std::size_t length = context * std::size_t(2 * s - 1) / std::size_t(s);
                if (length * std::size_t(s) == context * std::size_t(2 * s - 1)) {
                    const Rope<T> dynamic = make_rope(T(10000), d, sc, RopeLayout::interleaved, length);
                    const Rope<T> ntk = make_rope(T(10000), d, RopeScaling<T>{RopeScalingType::ntk, T(s)},
                                                  RopeLayout::interleaved);
                    CHECK(ratio_error(dynamic.inverse_frequencies.back(), ntk.inverse_frequencies.back()) <
                          tolerance<T>());
                }
            }
}

TEST_CASE_TEMPLATE("LongRoPE divides by the short list up to L0, by the long list beyond", T, SCALARS) {
    using std::log;
    using std::sqrt;
    const std::size_t d = 8, context = 4096;
    RopeScaling<T> sc = scaling(RopeScalingType::longrope, T(32), context);
    sc.short_factor = {T(1), parse_real<T>("1.5"), T(2), parse_real<T>("2.5")};
    sc.long_factor = {T(1), T(4), T(16), T(64)};
    const Rope<T> plain = make_rope(T(10000), d, RopeScaling<T>{}, RopeLayout::half);
    for (std::size_t length : {std::size_t(10), context, context + 1, 32 * context}) {
        const Rope<T> rope = make_rope(T(10000), d, sc, RopeLayout::half, length);
        const Vector<T>& divisors = length > context ? sc.long_factor : sc.short_factor;
        for (std::size_t i = 0; i < d / 2; ++i)
            CHECK(ratio_error(rope.inverse_frequencies[i], plain.inverse_frequencies[i] / divisors[i]) <
                  tolerance<T>());
        CHECK(ratio_error(rope.attention_factor, sqrt(T(1) + log(T(32)) / log(T(4096)))) < tolerance<T>());
    }
}
