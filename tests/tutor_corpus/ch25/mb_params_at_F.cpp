// Exercise: a SwiGLU FFN on the ReLU FFN's parameter budget.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long C = input_integer("hidden_size");
    long F = input_integer("ffn_hidden_size");
    long relu = 2 * C * F;
    long matched = 2 * F / 3;  // 3 C F' = 2 C F
    answer("relu_ffn_parameters", relu);
    answer("matched_ffn_hidden_size", matched);
    answer("matched_swiglu_ffn_parameters", 3 * C * F);
    answer("swiglu_ffn_parameters", 3 * C * F);
}
