// Exercise 25.6-5: the SwiGLU width that spends a ReLU FFN's matrix budget.
#include "solutions/ch25/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> swiglu_matched_budget(const Inputs& in) {
    const S hidden = whole_of<S>(in, "hidden_size", 1);
    const S ffn_hidden = whole_of<S>(in, "ffn_hidden_size", 1);
    if (2 * positive_count(in, "ffn_hidden_size") % 3 != 0)
        throw InputError("input 'ffn_hidden_size' should be a multiple of 3, so that two thirds of it is whole");
    const S matched = ch25::matched_swiglu_width(in, ffn_hidden);  // 3 C F' = 2 C F
    return {
        {"relu_ffn_parameters", ch25::relu_ffn_count(in, hidden, ffn_hidden)},
        {"matched_ffn_hidden_size", matched},
        {"matched_swiglu_ffn_parameters", ch25::swiglu_ffn_count(in, hidden, matched)},
        {"swiglu_ffn_parameters", ch25::swiglu_ffn_count(in, hidden, ffn_hidden)},
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(swiglu_matched_budget)

}  // namespace blockcheck
