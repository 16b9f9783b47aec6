// Matched budget, worked in doubles and rounded.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    double C = input_integer("hidden_size");
    double F = input_integer("ffn_hidden_size");
    double relu = 2.0 * C * F;
    double width = relu / (3.0 * C);
    long w = std::lround(width);
    answer("relu_ffn_parameters", (long)std::llround(relu));
    answer("matched_ffn_hidden_size", w);
    answer("matched_swiglu_ffn_parameters", 3L * (long)C * w);
    answer("swiglu_ffn_parameters", (long)std::llround(3.0 * C * F));
}
