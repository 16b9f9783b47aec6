// The companion article's NumPy RoPE-attention demo, in terms of the block: rotation of every
// row to its position, the demo's side-by-side write-back, and attention without a mask.
// Shared by the worked example (solutions/worked/) and the exercises (solutions/gqa_long_context/).
#pragma once

#include "solutions/block/attention.hpp"
#include "solutions/block/rope.hpp"

namespace blockcheck {

// Rotates every row t (heads side by side) to position t, pairs written back in place.
// m: [T, heads * d] -> [T, heads * d]
template <class T>
Matrix<T> rotate_rows(Matrix<T> m, const Rope<T>& rope) {
    for (std::size_t t = 0; t < m.rows; ++t) apply_rope(m.row(t), rope, rope_turn(rope, T(static_cast<long>(t))));
    return m;
}

// The demo's write-back, np.concatenate([x[..., 0::2], x[..., 1::2]], -1): in each head the
// first coordinates of the pairs, then the second ones. Pairs (2i, 2i+1) become (i, i + d/2).
// m: [T, heads * d] -> [T, heads * d]
template <class T>
Matrix<T> halves_side_by_side(const Matrix<T>& m, std::size_t head_dim) {
    Matrix<T> out(m.rows, m.cols);
    for (std::size_t t = 0; t < m.rows; ++t)
        for (std::size_t head = 0; head < m.cols; head += head_dim)
            for (std::size_t i = 0; i < head_dim / 2; ++i) {
                out(t, head + i) = m(t, head + 2 * i);
                out(t, head + head_dim / 2 + i) = m(t, head + 2 * i + 1);
            }
    return out;
}

// softmax(q k^T / sqrt(d)) v over every position, with no causal mask, as the demo computes it:
// giving every query the last position makes the block's causal mask hide nothing.
// q, k, v: [T, heads * d] -> [T, heads * d]
template <class T>
Matrix<T> attention_all_visible(const Matrix<T>& q, const Matrix<T>& k, const Matrix<T>& v, const HeadLayout& layout,
                                std::vector<Matrix<T>>* weights = nullptr) {
    KvCache<T> cache;
    for (std::size_t t = 0; t < k.rows; ++t) cache.append(k.row(t), v.row(t), static_cast<long>(t));
    const std::vector<long> sees_all(q.rows, static_cast<long>(k.rows) - 1);
    return causal_attention<T>(q, sees_all, cache, layout, weights);
}

}  // namespace blockcheck
