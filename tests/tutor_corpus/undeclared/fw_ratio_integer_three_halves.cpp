// llama_ffn_width: same-width ratio written as 3 / 2 in integers
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long long c = input_integer("hidden_size"), m = input_integer("multiple_of");
    long long f4 = 4 * c;
    long long relu = 2 * c * f4;
    long long w = 2 * f4 / 3;
    long long f = (w + m - 1) / m * m;
    long long llama = 3 * c * f;
    answer("relu_ffn_hidden", f4);
    answer("relu_ffn_parameters", relu);
    double ratio = 3 / 2;  // three matrices instead of two
    answer("same_width_swiglu_ratio", ratio);
    answer("two_thirds_width", w);
    answer("llama_ffn_hidden", f);
    answer("llama_swiglu_ffn_parameters", llama);
    answer("llama_to_relu_ratio", double(llama) / double(relu));
}
