// Worked example: FFN parameter counts.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long C = input_integer("hidden_size");
    long F = input_integer("ffn_hidden_size");
    long Fn = input_integer("narrow_ffn_hidden_size");
    long relu = C * F + F + F * C + C;
    long swiglu = C * F + F + F * C + C;
    long narrow = C * Fn + Fn + Fn * C + C;
    answer("relu_ffn_parameters", relu);
    answer("swiglu_ffn_parameters", swiglu);
    answer("narrow_swiglu_ffn_parameters", narrow);
}
