// Worked example (companion): NTK-aware scaling replaces the RoPE base.
// `./blockcheck show ntk_aware_scaling` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] double base = input_number("base");
    [[maybe_unused]] long head_dim = input_integer("head_dim");  // d
    [[maybe_unused]] double factor = input_number("factor");     // s

    // base' = base * s^(d / (d - 2)); pair i turns base'^(-2i / d) radians a position.

    // answer("ntk_base", ...);                        // number
    // answer("first_inverse_frequency", ...);         // number: pair 0, original base
    // answer("last_inverse_frequency", ...);          // number: pair d/2 - 1, original base
    // answer("ntk_first_inverse_frequency", ...);     // number: pair 0, new base
    // answer("ntk_last_inverse_frequency", ...);      // number: pair d/2 - 1, new base
    // answer("last_pair_slowdown", ...);              // number
    // answer("linear_first_inverse_frequency", ...);  // number: pair 0 under linear interpolation
}
