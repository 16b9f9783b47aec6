// FFN parameter counts, printed with printf.
#include "blockcheck.hpp"
#include <cstdio>
using namespace bc;

int main() {
    int c = (int)input_integer("hidden_size");
    int f = (int)input_integer("ffn_hidden_size");
    int nf = (int)input_integer("narrow_ffn_hidden_size");
    int matrices_relu = 2, matrices_swiglu = 3;
    std::printf("relu_ffn_parameters = %d\n", matrices_relu * c * f);
    std::printf("swiglu_ffn_parameters = %d\n", matrices_swiglu * c * f);
    std::printf("narrow_swiglu_ffn_parameters = %d\n", matrices_swiglu * c * nf);
}
