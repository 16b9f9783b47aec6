// Exercise 25.6-5: the SwiGLU width that spends a ReLU FFN's matrix budget.
#include "solutions/ch25/references.hpp"

namespace blockcheck {

Values swiglu_matched_budget(const Inputs& in) {
    const Count hidden = positive_count(in, "hidden_size");
    const Count ffn_hidden = positive_count(in, "ffn_hidden_size");
    if (2 * ffn_hidden % 3 != 0)
        throw InputError("input 'ffn_hidden_size' should be a multiple of 3, so that two thirds of it is whole");
    const Count matched = ch25::matched_swiglu_width(in, ffn_hidden);  // 3 C F' = 2 C F
    return {
        {"relu_ffn_parameters", ch25::count(ch25::relu_ffn_count(in, hidden, ffn_hidden))},
        {"matched_ffn_hidden_size", ch25::count(matched)},
        {"matched_swiglu_ffn_parameters", ch25::count(ch25::swiglu_ffn_count(in, hidden, matched))},
        {"swiglu_ffn_parameters", ch25::count(ch25::swiglu_ffn_count(in, hidden, ffn_hidden))},
    };
}

}  // namespace blockcheck
