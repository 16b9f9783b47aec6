// Exercise (companion): NTK-aware scaling against linear interpolation, pair by pair.
// `./blockcheck show ntk_vs_linear` prints the full task and the choices.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] double base = input_number("base");
    [[maybe_unused]] long head_dim = input_integer("head_dim");
    [[maybe_unused]] double factor = input_number("factor");

    // One vector entry per pair i = 0 .. head_dim/2 - 1, in radians per position.

    // answer("inverse_frequencies", ...);         // vector
    // answer("linear_inverse_frequencies", ...);  // vector
    // answer("ntk_inverse_frequencies", ...);     // vector
    // answer("linear_slowdown", ...);             // vector
    // answer("ntk_slowdown", ...);                // vector
    // answer_choice("keeps_fastest_pair", "?");   // A, B, C or D
}
