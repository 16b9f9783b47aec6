// Writing the rotated pairs back in place instead of as two halves: Q and K change, the
// attention output does not (the same permutation of Q and K leaves every dot product).
#include "solutions/gqa_long_context/attention_demo.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> rope_write_back_layout(const Inputs& in) {
    const companion::AttentionDemo<S> d = companion::read_attention_demo<S>(in);
    const Matrix<S> q_in_place = companion::rotated(in, d, d.q, false);
    const Matrix<S> k_in_place = companion::rotated(in, d, d.k, false);
    const Matrix<S> q_halves = halves_side_by_side(rotate_rows(d.q, d.rope), d.head_dim);  // the demo's
    const Matrix<S> k_halves = halves_side_by_side(rotate_rows(d.k, d.rope), d.head_dim);
    const HeadLayout layout{d.heads, d.heads, d.head_dim};
    const Matrix<S> out_in_place =
        companion::demo_attention(in, companion::unscaled_if(in, q_in_place, d.head_dim), k_in_place, d.v, layout);
    const Matrix<S> out_halves =
        companion::demo_attention(in, companion::unscaled_if(in, q_halves, d.head_dim), k_halves, d.v, layout);
    return {
        {"q_interleaved", q_in_place},
        {"attention_output_interleaved", out_in_place},
        {"q_changes", boolean_of<S>(!same_values(real_values(q_in_place.values), real_values(q_halves.values)))},
        {"output_changes", boolean_of<S>(!same_values(real_values(out_in_place.values), real_values(out_halves.values)))},
        {"why", choice_of<S>("A")},  // Q and K are permuted alike; a dot product ignores the order
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(rope_write_back_layout)

}  // namespace blockcheck
