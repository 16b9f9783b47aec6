// The companion's Python demo: rope_embed on q and k (pairs read interleaved, written back as
// two halves side by side), then softmax attention over all positions, no causal mask.
#include "solutions/gqa_long_context/attention_demo.hpp"

namespace blockcheck {

namespace {

// The demo writes each rotated pair (2i, 2i+1) back as two halves (i, i + d/2); a program that
// pairs (i, i + d/2) in the first place (mistake pairing_half_vs_interleaved) writes them there
// already; one that writes them back in place (mistake written_back_in_place) never moves them.
// m: [T, heads * d] -> [T, heads * d]
Matrix<Real> rotated(const Inputs& in, const companion::AttentionDemo& d, const Matrix<Real>& m) {
    const Matrix<Real> turned = rotate_rows(m, d.rope);
    if (in.mistake("written_back_in_place")) return turned;
    return d.rope.layout == RopeLayout::half ? turned : halves_side_by_side(turned, d.head_dim);
}

}  // namespace

Values rope_attention_demo(const Inputs& in) {
    const companion::AttentionDemo d = companion::read_attention_demo(in);
    const Matrix<Real> q = rotated(in, d, d.q);
    const Matrix<Real> k = rotated(in, d, d.k);
    return {
        {"q_rotated", q},
        {"k_rotated", k},
        // Mistake rope_on_v: V turned as Q and K.
        {"attention_output", companion::demo_attention(in, companion::unscaled_if(in, q, d.head_dim), k,
                                                       in.mistake("rope_on_v") ? rotated(in, d, d.v) : d.v,
                                                       HeadLayout{d.heads, d.heads, d.head_dim})},
    };
}

}  // namespace blockcheck
