// Worked example (companion): the Python demo, RoPE on q and k, then attention over all positions.
// `./blockcheck show rope_attention_demo` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] long heads = input_integer("heads");
    [[maybe_unused]] long head_dim = input_integer("head_dim");
    [[maybe_unused]] double base = input_number("base");
    Matrix q = input_matrix("q");  // [8, heads * head_dim]: row t = position t, heads side by side
    Matrix k = input_matrix("k");
    Matrix v = input_matrix("v");

    // Per head: read pairs (2i, 2i+1), turn pair i by t * base^(-2i/head_dim), write the
    // rotated x values first and the rotated y values second. Then softmax(q k^T / sqrt(d)) v,
    // with no causal mask.

    // answer("q_rotated", ...);         // matrix, the demo's layout
    // answer("k_rotated", ...);         // matrix, the demo's layout
    // answer("attention_output", ...);  // matrix
}
