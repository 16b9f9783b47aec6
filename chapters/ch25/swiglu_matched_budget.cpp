// Exercise 25.6-5: give a SwiGLU FFN the matrix budget of a ReLU FFN.
// `./blockcheck show swiglu_matched_budget` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] long hidden_size = input_integer("hidden_size");          // C
    [[maybe_unused]] long ffn_hidden_size = input_integer("ffn_hidden_size");  // the ReLU FFN's F

    // Whole numbers only: answer(name, some_long).

    // answer("relu_ffn_parameters", ...);
    // answer("matched_ffn_hidden_size", ...);        // equal counts on both sides
    // answer("matched_swiglu_ffn_parameters", ...);
    // answer("swiglu_ffn_parameters", ...);          // SwiGLU keeping the ReLU's F
}
