// Worked example: FFN parameter counts.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long C = input_integer("hidden_size");
    long F = input_integer("ffn_hidden_size");
    long Fn = input_integer("narrow_ffn_hidden_size");
    long relu = C * F + F * C;             // up [C,F] + down [F,C]
    long swiglu = C * F + F * C;   // gate/up + down
    long narrow = 2 * C * Fn;
    answer("relu_ffn_parameters", relu);
    answer("swiglu_ffn_parameters", swiglu);
    answer("narrow_swiglu_ffn_parameters", narrow);
}
