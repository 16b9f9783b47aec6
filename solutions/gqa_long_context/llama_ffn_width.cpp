// SwiGLU at the ReLU FFN's width costs half as much again; LLaMA takes two thirds of 4 C,
// rounded up to a multiple, to come back near the ReLU budget.
#include "solutions/ch25/references.hpp"  // ch25::swiglu_ffn_count: SwiGLU counted through its slips
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

Values llama_ffn_width(const Inputs& in) {
    const Count hidden = positive_count(in, "hidden_size");
    const Count multiple = positive_count(in, "multiple_of");
    using companion::given_count;
    auto as_real = [](Count n) { return Real(static_cast<unsigned long long>(n)); };
    // Each step from the one before it (the student's own, when a step is judged from it).
    const Count relu_width = given_count(in, "relu_ffn_hidden", 4 * hidden);  // the classic FFN: 4 C
    const Count relu = given_count(in, "relu_ffn_parameters", relu_ffn_parameters(hidden, relu_width));
    const Count swiglu_same_width = ch25::swiglu_ffn_count(in, hidden, 4 * hidden);
    const Count narrowed = given_count(in, "two_thirds_width", companion::two_thirds(in, relu_width));
    // Mistake relu_width_for_swiglu: the ReLU width kept for SwiGLU.
    const Count llama_width = given_count(in, "llama_ffn_hidden", in.mistake("relu_width_for_swiglu")
                                                                      ? relu_width
                                                                      : companion::rounded_up(in, narrowed, multiple));
    const Count llama = given_count(in, "llama_swiglu_ffn_parameters", ch25::swiglu_ffn_count(in, hidden, llama_width));
    if (relu == 0) throw InputError("a parameter count of zero divides nothing");
    return {
        {"relu_ffn_hidden", companion::count(relu_width)},
        {"relu_ffn_parameters", companion::count(relu)},
        {"same_width_swiglu_ratio", as_real(swiglu_same_width) / as_real(relu_ffn_parameters(hidden, 4 * hidden))},
        {"two_thirds_width", companion::count(narrowed)},
        {"llama_ffn_hidden", companion::count(llama_width)},
        {"llama_swiglu_ffn_parameters", companion::count(llama)},
        {"llama_to_relu_ratio", as_real(llama) / as_real(relu)},
    };
}

}  // namespace blockcheck
