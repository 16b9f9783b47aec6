// Writing the rotated pairs back in place instead of as two halves: Q and K change, the
// attention output does not (the same permutation of Q and K leaves every dot product).
#include "solutions/gqa_long_context/attention_demo.hpp"

namespace blockcheck {

Values rope_write_back_layout(const Inputs& in) {
    const companion::AttentionDemo d = companion::read_attention_demo(in);
    const Matrix<Real> q_in_place = companion::rotated(in, d, d.q, false);
    const Matrix<Real> k_in_place = companion::rotated(in, d, d.k, false);
    const Matrix<Real> q_halves = halves_side_by_side(rotate_rows(d.q, d.rope), d.head_dim);  // the demo's
    const Matrix<Real> k_halves = halves_side_by_side(rotate_rows(d.k, d.rope), d.head_dim);
    const HeadLayout layout{d.heads, d.heads, d.head_dim};
    const Matrix<Real> out_in_place =
        companion::demo_attention(in, companion::unscaled_if(in, q_in_place, d.head_dim), k_in_place, d.v, layout);
    const Matrix<Real> out_halves =
        companion::demo_attention(in, companion::unscaled_if(in, q_halves, d.head_dim), k_halves, d.v, layout);
    return {
        {"q_interleaved", q_in_place},
        {"attention_output_interleaved", out_in_place},
        {"q_changes", companion::boolean(!same_values(q_in_place.values, q_halves.values))},
        {"output_changes", companion::boolean(!same_values(out_in_place.values, out_halves.values))},
        {"why", companion::choice("A")},  // Q and K are permuted alike; a dot product ignores the order
    };
}

}  // namespace blockcheck
