// The companion's Python demo (rope_embed + attention) at 50 digits, built on the block.
#pragma once

#include "solutions/block/attention.hpp"
#include "solutions/rope_demo.hpp"
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck::companion {

template <class S>
struct AttentionDemo {
    std::size_t heads = 0, head_dim = 0;
    Rope<S> rope;
    Matrix<S> q, k, v;  // [T, heads * head_dim]: row t is position t, heads side by side
};

// Reads heads, head_dim, base and the q, k, v rows, as scalar S (on the tape: the inputs' leaves).
template <class S>
AttentionDemo<S> read_attention_demo(const Inputs& in) {
    AttentionDemo<S> d;
    d.heads = static_cast<std::size_t>(integer_at_least(in, "heads", 1));
    d.head_dim = static_cast<std::size_t>(integer_at_least(in, "head_dim", 2));
    if (d.head_dim % 2 != 0) throw InputError("input 'head_dim' should be even");
    // theta_i = base^(-2i/d), positions 0 .. T-1: the demo's frequency plan
    // Mistake pairing_half_vs_interleaved: pairs (i, i + d/2) rotated instead of (2i, 2i+1).
    d.rope = plain_rope(in, positive_number<S>(in, "base"), d.head_dim, RopeScaling<S>{},
                        in.mistake("pairing_half_vs_interleaved") ? RopeLayout::half : RopeLayout::interleaved);
    d.q = matrix_of<S>(in, "q");
    d.k = matrix_of<S>(in, "k");
    d.v = matrix_of<S>(in, "v");
    const std::size_t width = d.heads * d.head_dim;
    for (const auto& [m, name] : {std::pair{&d.q, "q"}, std::pair{&d.k, "k"}, std::pair{&d.v, "v"}})
        if (m->cols != width || m->rows != d.q.rows || m->rows == 0)
            throw InputError(std::string("input '") + name + "' should have heads * head_dim = " +
                             std::to_string(width) + " columns and as many rows as q");
    return d;
}

// Rotated rows written back in the layout asked: the demo's two halves (i, i + d/2) side by
// side, or each pair in place (2i, 2i+1). Mistakes written_back_in_place (in place where halves
// are asked), written_back_as_halves (halves where in place is asked); a plan pairing (i, i + d/2)
// in the first place (pairing_half_vs_interleaved) has its halves already.  m: [T, heads * d]
template <class S>
Matrix<S> rotated(const Inputs& in, const AttentionDemo<S>& d, const Matrix<S>& m, bool halves) {
    const Matrix<S> turned = rotate_rows(m, d.rope);
    if (halves ? in.mistake("written_back_in_place") : !in.mistake("written_back_as_halves")) return turned;
    return d.rope.layout == RopeLayout::half ? turned : halves_side_by_side(turned, d.head_dim);
}

// Mistake no_attention_scale: scores q.k without the 1/sqrt(d). The block always divides by
// sqrt(d), so the queries are multiplied by sqrt(d) first.  q: [T, heads * d]
template <class S>
Matrix<S> unscaled_if(const Inputs& in, Matrix<S> q, std::size_t head_dim) {
    using std::sqrt;
    if (!in.mistake("no_attention_scale")) return q;
    const S root = sqrt(S(static_cast<long>(head_dim)));
    for (S& x : q.values) x *= root;
    return q;
}

// The demo's attention: every position visible.  Mistake mask_added: a causal mask applied.
template <class S>
Matrix<S> demo_attention(const Inputs& in, const Matrix<S>& q, const Matrix<S>& k, const Matrix<S>& v, const HeadLayout& layout) {
    if (!in.mistake("mask_added")) return attention_all_visible(q, k, v, layout);
    KvCache<S> cache;
    std::vector<long> positions(q.rows);
    for (std::size_t t = 0; t < k.rows; ++t) cache.append(k.row(t), v.row(t), static_cast<long>(t));
    for (std::size_t t = 0; t < q.rows; ++t) positions[t] = static_cast<long>(t);
    return causal_attention<S>(q, positions, cache, layout);
}

}  // namespace blockcheck::companion
