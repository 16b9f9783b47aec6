// Solved: table 25.2, as a student would write it.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long c = input_integer("hidden_size");
    long f = input_integer("ffn_hidden_size");
    long f_small = input_integer("narrow_ffn_hidden_size");
    answer("relu_ffn_parameters", 2 * c * f);           // up + down
    answer("swiglu_ffn_parameters", 3 * c * f);         // gate + up + down
    answer("narrow_swiglu_ffn_parameters", 3 * c * f_small);
}
