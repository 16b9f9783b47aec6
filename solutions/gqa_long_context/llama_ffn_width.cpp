// SwiGLU at the ReLU FFN's width costs half as much again; LLaMA takes two thirds of 4 C,
// rounded up to a multiple, to come back near the ReLU budget.
#include "solutions/gqa_long_context/references.hpp"
#include "solutions/ch25/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> llama_ffn_width(const Inputs& in) {
    const S hidden = whole_of<S>(in, "hidden_size", 1);
    const S multiple = whole_of<S>(in, "multiple_of", 1);
    using companion::given_count;
    // Each step from the one before it (the student's own, when a step is judged from it).
    const S relu_width = given_count(in, "relu_ffn_hidden", S(S(4) * hidden));  // the classic FFN: 4 C
    const S relu = given_count(in, "relu_ffn_parameters", relu_ffn_parameters<S>(hidden, relu_width));
    const S swiglu_same_width = ch25::swiglu_ffn_count(in, hidden, S(S(4) * hidden));
    const S narrowed = given_count(in, "two_thirds_width", companion::two_thirds(in, relu_width));
    // Mistake relu_width_for_swiglu: the ReLU width kept for SwiGLU.
    const S llama_width = given_count(in, "llama_ffn_hidden", in.mistake("relu_width_for_swiglu")
                                                                  ? relu_width
                                                                  : companion::rounded_up(in, narrowed, multiple));
    const S llama = given_count(in, "llama_swiglu_ffn_parameters", ch25::swiglu_ffn_count(in, hidden, llama_width));
    if (relu == 0) throw InputError("a parameter count of zero divides nothing");
    return {
        {"relu_ffn_hidden", relu_width},
        {"relu_ffn_parameters", relu},
        {"same_width_swiglu_ratio", S(swiglu_same_width / relu_ffn_parameters<S>(hidden, S(S(4) * hidden)))},
        {"two_thirds_width", narrowed},
        {"llama_ffn_hidden", llama_width},
        {"llama_swiglu_ffn_parameters", llama},
        {"llama_to_relu_ratio", S(llama / relu)},
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(llama_ffn_width)

}  // namespace blockcheck
