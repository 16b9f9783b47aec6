// A student who keeps the ReLU width for SwiGLU.
// expect: swiglu_matched_budget matched_ffn_hidden_size relu_width_for_swiglu
// inputs: book
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long width = input_integer("hidden_size");
    long relu_f = input_integer("ffn_hidden_size");

    long relu_count = 2 * width * relu_f;
    long gated_f = relu_f;  // the ReLU width kept
    answer("relu_ffn_parameters", relu_count);
    answer("matched_ffn_hidden_size", gated_f);
    answer("matched_swiglu_ffn_parameters", 3 * width * gated_f);
    answer("swiglu_ffn_parameters", 3 * width * relu_f);
}
