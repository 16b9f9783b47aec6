// Table 25.2: same hidden width and same parameter budget are two different comparisons.
#include "solutions/ch25/references.hpp"

namespace blockcheck {

Values ffn_parameter_counts(const Inputs& in) {
    const Count hidden = positive_count(in, "hidden_size");
    const Count ffn_hidden = positive_count(in, "ffn_hidden_size");
    const Count narrow = positive_count(in, "narrow_ffn_hidden_size");
    return {
        {"relu_ffn_parameters", ch25::count(ch25::relu_ffn_count(in, hidden, ffn_hidden))},
        {"swiglu_ffn_parameters", ch25::count(ch25::swiglu_ffn_count(in, hidden, ffn_hidden))},
        {"narrow_swiglu_ffn_parameters", ch25::count(ch25::swiglu_ffn_count(in, hidden, narrow))},
    };
}

}  // namespace blockcheck
