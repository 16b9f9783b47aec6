// Table 25.2: same hidden width and same parameter budget are two different comparisons.
#include "solutions/ch25/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> ffn_parameter_counts(const Inputs& in) {
    const S hidden = whole_of<S>(in, "hidden_size", 1);
    const S ffn_hidden = whole_of<S>(in, "ffn_hidden_size", 1);
    const S narrow = whole_of<S>(in, "narrow_ffn_hidden_size", 1);
    return {
        {"relu_ffn_parameters", ch25::relu_ffn_count(in, hidden, ffn_hidden)},
        {"swiglu_ffn_parameters", ch25::swiglu_ffn_count(in, hidden, ffn_hidden)},
        {"narrow_swiglu_ffn_parameters", ch25::swiglu_ffn_count(in, hidden, narrow)},
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(ffn_parameter_counts)

}  // namespace blockcheck
