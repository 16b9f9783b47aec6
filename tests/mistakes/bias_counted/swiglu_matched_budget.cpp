// A student who counts a bias with each matrix.
// expect: swiglu_matched_budget relu_ffn_parameters bias_counted
// inputs: book
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long width = input_integer("hidden_size");
    long relu_f = input_integer("ffn_hidden_size");

    long relu_count = 2 * width * relu_f + relu_f + width;  // biases counted
    long gated_f = 2 * relu_f / 3;  // 3 C F' = 2 C F
    answer("relu_ffn_parameters", relu_count);
    answer("matched_ffn_hidden_size", gated_f);
    answer("matched_swiglu_ffn_parameters", 3 * width * gated_f);
    answer("swiglu_ffn_parameters", 3 * width * relu_f);
}
