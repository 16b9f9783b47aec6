// The companion's Python demo: rope_embed on q and k (pairs read interleaved, written back as
// two halves side by side), then softmax attention over all positions, no causal mask.
#include "solutions/gqa_long_context/attention_demo.hpp"

namespace blockcheck {

Values rope_attention_demo(const Inputs& in) {
    const companion::AttentionDemo d = companion::read_attention_demo(in);
    const Matrix<Real> q = halves_side_by_side(rotate_rows(d.q, d.rope), d.head_dim);
    const Matrix<Real> k = halves_side_by_side(rotate_rows(d.k, d.rope), d.head_dim);
    return {
        {"q_rotated", q},
        {"k_rotated", k},
        {"attention_output", attention_all_visible(companion::unscaled_if(in, q, d.head_dim), k, d.v,
                                                   HeadLayout{d.heads, d.heads, d.head_dim})},
    };
}

}  // namespace blockcheck
