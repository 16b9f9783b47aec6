// llama_ffn_width: right, in double with floor and ceil
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

int main() {
    double C = input_number("hidden_size");
    double m = input_number("multiple_of");
    double relu_hidden = 4 * C;
    double relu_params = 2 * C * relu_hidden;
    answer("relu_ffn_hidden", (long)relu_hidden);
    answer("relu_ffn_parameters", (long)relu_params);
    answer("same_width_swiglu_ratio", 3 * C * relu_hidden / relu_params);
    double two_thirds = std::floor(2.0 / 3.0 * relu_hidden);
    answer("two_thirds_width", (long)two_thirds);
    double hidden = m * std::ceil(two_thirds / m);
    answer("llama_ffn_hidden", (long)hidden);
    answer("llama_swiglu_ffn_parameters", (long)(3 * C * hidden));
    answer("llama_to_relu_ratio", 3 * C * hidden / relu_params);
}
