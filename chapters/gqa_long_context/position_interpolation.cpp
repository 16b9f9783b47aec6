// Worked example (companion): Position Interpolation squeezes 100 positions into 8.
// `./blockcheck show position_interpolation` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] double angle_degrees = input_number("angle_degrees");   // the stamp's turn per position
    [[maybe_unused]] long trained_positions = input_integer("trained_positions");
    [[maybe_unused]] long target_positions = input_integer("target_positions");
    [[maybe_unused]] long position = input_integer("position");             // the position to follow

    // Interpolation divides every position by target / trained before the stamp turns.

    // answer("interpolation_factor", ...);     // number
    // answer("neighbour_angle_degrees", ...);  // number: between positions p and p + 1, after interpolation (do not reduce modulo 360)
    // answer("landed_position", ...);          // number: position / factor
    // answer("landed_angle_degrees", ...);     // number: position's angle after interpolation (do not reduce modulo 360)
    // answer("unscaled_angle_degrees", ...);   // number: position's angle without it (do not reduce modulo 360)
}
