// Solved: SwiGLU's cost and LLaMA's FFN width, as a student would write it.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long long c = input_integer("hidden_size"), m = input_integer("multiple_of");
    long long relu_width = 4 * c;
    long long relu = 2 * c * relu_width;
    long long two_thirds = 2 * relu_width / 3;
    long long width = (two_thirds + m - 1) / m * m;
    long long llama = 3 * c * width;
    answer("relu_ffn_hidden", relu_width);
    answer("relu_ffn_parameters", relu);
    answer("same_width_swiglu_ratio", double(3 * c * relu_width) / double(relu));
    answer("two_thirds_width", two_thirds);
    answer("llama_ffn_hidden", width);
    answer("llama_swiglu_ffn_parameters", llama);
    answer("llama_to_relu_ratio", double(llama) / double(relu));
}
