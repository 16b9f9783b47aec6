// The companion's Python demo: rope_embed on q and k (pairs read interleaved, written back as
// two halves side by side), then softmax attention over all positions, no causal mask.
#include "solutions/gqa_long_context/attention_demo.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> rope_attention_demo(const Inputs& in) {
    const companion::AttentionDemo<S> d = companion::read_attention_demo<S>(in);
    const Matrix<S> q = companion::rotated(in, d, d.q, true);  // written back as two halves
    const Matrix<S> k = companion::rotated(in, d, d.k, true);
    return {
        {"q_rotated", q},
        {"k_rotated", k},
        // Mistake rope_on_v: V turned as Q and K.
        {"attention_output", companion::demo_attention(in, companion::unscaled_if(in, q, d.head_dim), k,
                                                       in.mistake("rope_on_v") ? companion::rotated(in, d, d.v, true) : d.v,
                                                       HeadLayout{d.heads, d.heads, d.head_dim})},
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(rope_attention_demo)

}  // namespace blockcheck
