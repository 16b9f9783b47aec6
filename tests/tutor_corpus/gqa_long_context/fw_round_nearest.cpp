// llama_ffn_width: rounds to the nearest multiple (up on the book: 42.7 -> 43; where it differs from up it is rounding down)
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long C = input_integer("hidden_size");
    long m = input_integer("multiple_of");

    long relu_hidden = 4 * C;
    long relu_params = 2 * C * relu_hidden;
    answer("relu_ffn_hidden", relu_hidden);
    answer("relu_ffn_parameters", relu_params);
    answer("same_width_swiglu_ratio", double(3 * C * relu_hidden) / double(relu_params));

    long two_thirds = 2 * relu_hidden / 3;
    answer("two_thirds_width", two_thirds);
    long hidden = std::lround(double(two_thirds) / m) * m;
    answer("llama_ffn_hidden", hidden);
    long params = 3 * C * hidden;
    answer("llama_swiglu_ffn_parameters", params);
    answer("llama_to_relu_ratio", double(params) / double(relu_params));
}
