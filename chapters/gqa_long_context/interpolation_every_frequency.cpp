// Exercise (companion): linear interpolation on a multi-frequency RoPE, pair by pair.
// `./blockcheck show interpolation_every_frequency` prints the full task and the choices.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] double base = input_number("base");    // e.g. 10000
    [[maybe_unused]] long head_dim = input_integer("head_dim");  // even: head_dim / 2 pairs
    [[maybe_unused]] double factor = input_number("factor");  // positions are divided by it
    [[maybe_unused]] long position = input_integer("position");

    // Pair i turns inv_freq_i = base^(-2i / head_dim) radians a position.

    // answer("inverse_frequencies", ...);               // vector, one entry per pair
    // answer("interpolated_inverse_frequencies", ...);  // vector
    // answer("angles", ...);                            // vector: radians at position
    // answer("interpolated_angles", ...);               // vector
    // answer("slowdown", ...);                          // vector: speed before / speed after
    // answer_choice("which_pairs_slow_down", "?");      // A, B or C
}
