// Worked example — table 25.2: matrix parameters of ReLU and SwiGLU FFNs.
// `./blockcheck show ffn_parameter_counts` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] long hidden_size = input_integer("hidden_size");          // C
    [[maybe_unused]] long ffn_hidden_size = input_integer("ffn_hidden_size");  // F
    [[maybe_unused]] long narrow_ffn_hidden_size = input_integer("narrow_ffn_hidden_size");

    // Count the weights of every matrix the FFN stores; no biases, no norm gains.
    // Print whole numbers: answer(name, some_long).

    // answer("relu_ffn_parameters", ...);
    // answer("swiglu_ffn_parameters", ...);
    // answer("narrow_swiglu_ffn_parameters", ...);
}
