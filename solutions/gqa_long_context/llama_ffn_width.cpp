// SwiGLU at the ReLU FFN's width costs half as much again; LLaMA takes two thirds of 4 C,
// rounded up to a multiple, to come back near the ReLU budget.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

Values llama_ffn_width(const Inputs& in) {
    const Count hidden = positive_count(in, "hidden_size");
    const Count multiple = positive_count(in, "multiple_of");
    const Count relu_width = 4 * hidden;  // the classic FFN: four times the model width
    const Count relu = relu_ffn_parameters(hidden, relu_width);
    const Count swiglu_same_width = swiglu_ffn_parameters(hidden, relu_width);
    // Mistake relu_width_for_swiglu: the ReLU width kept for SwiGLU.
    const Count llama_width = in.mistake("relu_width_for_swiglu") ? relu_width : companion::ffn_width(in, hidden, multiple);
    const Count llama = swiglu_ffn_parameters(hidden, llama_width);
    auto as_real = [](Count n) { return Real(static_cast<unsigned long long>(n)); };
    return {
        {"relu_ffn_hidden", companion::count(relu_width)},
        {"relu_ffn_parameters", companion::count(relu)},
        {"same_width_swiglu_ratio", as_real(swiglu_same_width) / as_real(relu)},
        {"two_thirds_width", companion::count(companion::ffn_width(in, hidden, 1))},  // a multiple of 1: no rounding up
        {"llama_ffn_hidden", companion::count(llama_width)},
        {"llama_swiglu_ffn_parameters", companion::count(llama)},
        {"llama_to_relu_ratio", as_real(llama) / as_real(relu)},
    };
}

}  // namespace blockcheck
