// position_interpolation: right, in float
#include "blockcheck.hpp"
using namespace bc;

int main() {
    float angle = input_number("angle_degrees");
    float trained = input_integer("trained_positions");
    float target = input_integer("target_positions");
    float position = input_number("position");
    float factor = target / trained;
    answer("interpolation_factor", factor);
    answer("neighbour_angle_degrees", angle / factor);
    answer("landed_position", position / factor);
    answer("landed_angle_degrees", position / factor * angle);
    answer("unscaled_angle_degrees", position * angle);
}
