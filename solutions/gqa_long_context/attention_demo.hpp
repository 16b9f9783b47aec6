// The companion's Python demo (rope_embed + attention) at 50 digits, built on the block.
#pragma once

#include "solutions/block/attention.hpp"
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck::companion {

struct AttentionDemo {
    std::size_t heads = 0, head_dim = 0;
    Rope<Real> rope;
    Matrix<Real> q, k, v;  // [T, heads * head_dim]: row t is position t, heads side by side
};

// Reads heads, head_dim, base and the q, k, v rows.
inline AttentionDemo read_attention_demo(const Inputs& in) {
    AttentionDemo d;
    d.heads = static_cast<std::size_t>(integer_at_least(in, "heads", 1));
    d.head_dim = static_cast<std::size_t>(integer_at_least(in, "head_dim", 2));
    if (d.head_dim % 2 != 0) throw InputError("input 'head_dim' should be even");
    // theta_i = base^(-2i/d), positions 0 .. T-1: the demo's frequency plan
    d.rope = make_rope(positive_number(in, "base"), d.head_dim, RopeScaling<Real>{}, RopeLayout::interleaved);
    d.q = in.matrix("q");
    d.k = in.matrix("k");
    d.v = in.matrix("v");
    const std::size_t width = d.heads * d.head_dim;
    for (const auto& [m, name] : {std::pair{&d.q, "q"}, std::pair{&d.k, "k"}, std::pair{&d.v, "v"}})
        if (m->cols != width || m->rows != d.q.rows || m->rows == 0)
            throw InputError(std::string("input '") + name + "' should have heads * head_dim = " +
                             std::to_string(width) + " columns and as many rows as q");
    return d;
}

// Every head of every row turned to its position, pairs (2i, 2i+1) written back in place.
// x: [T, heads * d] -> [T, heads * d]
inline Matrix<Real> rotate_interleaved(Matrix<Real> x, const Rope<Real>& rope) {
    for (std::size_t t = 0; t < x.rows; ++t) apply_rope(x.row(t), rope, rope_turn(rope, Real(static_cast<long>(t))));
    return x;
}

// The demo's write-back: np.concatenate([x*cos - y*sin, x*sin + y*cos], -1), i.e. in each
// head the rotated first coordinates of the pairs, then the rotated second coordinates.
// rotated: [T, heads * d] with pairs (2i, 2i+1) -> [T, heads * d] with pairs (i, i + d/2)
inline Matrix<Real> halves_side_by_side(const Matrix<Real>& rotated, std::size_t head_dim) {
    Matrix<Real> y(rotated.rows, rotated.cols);
    for (std::size_t t = 0; t < y.rows; ++t)
        for (std::size_t head = 0; head < y.cols; head += head_dim)
            for (std::size_t i = 0; i < head_dim / 2; ++i) {
                y(t, head + i) = rotated(t, head + 2 * i);
                y(t, head + head_dim / 2 + i) = rotated(t, head + 2 * i + 1);
            }
    return y;
}

// softmax(q k^T / sqrt(d)) v over every position, with no causal mask, as the demo does.
// The block's causal_attention shows query t the keys at positions <= its own; giving every
// query the last position makes all keys visible, which is exactly plain attention.
// q, k, v: [T, heads * d] -> [T, heads * d]
inline Matrix<Real> full_attention(const Matrix<Real>& q, const Matrix<Real>& k, const Matrix<Real>& v,
                                   std::size_t heads, std::size_t head_dim) {
    KvCache<Real> cache;
    for (std::size_t t = 0; t < k.rows; ++t) cache.append(k.row(t), v.row(t), static_cast<long>(t));
    const std::vector<long> sees_all(q.rows, static_cast<long>(k.rows) - 1);
    return causal_attention<Real>(q, sees_all, cache, HeadLayout{heads, heads, head_dim});
}

}  // namespace blockcheck::companion
