// Helpers for the block's tests: tolerances per scalar, relative comparison, seeded random
// blocks whose weights are exact in every precision (multiples of 1/64, from solutions/worked).
#pragma once

#include "solutions/block/block.hpp"
#include "solutions/block/real.hpp"
#include "solutions/worked/worked.hpp"

#include <cstdint>

namespace blockcheck::testing {

// The agreement expected of a chain of a few hundred roundings at T's precision.
template <class T>
T tolerance() {
    if constexpr (std::is_same_v<T, double>) return 1e-12;
    else if constexpr (std::is_same_v<T, Mpfr50>) return parse_real<T>("1e-45");
    else return parse_real<T>("1e-95");
}

// |a - b| / max(|b|, 1)
template <class T>
T relative_difference(const T& a, const T& b) {
    using std::abs;
    return abs(a - b) / std::max(abs(b), T(1));
}

template <class T>
T max_relative_difference(const Matrix<T>& a, const Matrix<T>& b) {
    if (a.rows != b.rows || a.cols != b.cols) return T(1e9);
    T worst(0);
    for (std::size_t i = 0; i < a.values.size(); ++i) worst = std::max(worst, relative_difference(a.values[i], b.values[i]));
    return worst;
}

// Inputs exact in every precision: the worked examples' seeded stream of multiples of 1/64.
using worked::SeededDyadic;
using worked::seeded_weights;  // matrices in [-40/64, 40/64], gains in [3/4, 5/4]

template <class T>
BlockConfig<T> small_config(std::size_t query_heads, std::size_t kv_heads, std::size_t head_dim,
                            RopeLayout layout = RopeLayout::interleaved, RopeScaling<T> scaling = {}) {
    BlockConfig<T> c;
    c.hidden_size = 12;
    c.query_heads = query_heads;
    c.kv_heads = kv_heads;
    c.head_dim = head_dim;
    c.ffn_hidden_size = 20;
    c.rms_norm_eps = parse_real<T>("0.000001");
    c.rope_theta = T(10000);
    c.rope_layout = layout;
    c.rope_scaling = scaling;
    return c;
}

}  // namespace blockcheck::testing
