// Worked example (companion): SwiGLU's parameter cost and LLaMA's FFN width rule.
// `./blockcheck show llama_ffn_width` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] long hidden_size = input_integer("hidden_size");  // C
    [[maybe_unused]] long multiple_of = input_integer("multiple_of");

    // ReLU FFN: two matrices of C x 4C. SwiGLU FFN of width F: three matrices of C x F.

    // answer("relu_ffn_hidden", ...);              // integer: 4C
    // answer("relu_ffn_parameters", ...);          // integer
    // answer("same_width_swiglu_ratio", ...);      // number
    // answer("two_thirds_width", ...);             // integer: 2 * 4C / 3, fraction dropped
    // answer("llama_ffn_hidden", ...);             // integer: rounded up to a multiple
    // answer("llama_swiglu_ffn_parameters", ...);  // integer
    // answer("llama_to_relu_ratio", ...);          // number
}
