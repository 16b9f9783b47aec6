// position_interpolation: multiplies the position by the factor
#include "blockcheck.hpp"
using namespace bc;

int main() {
    double angle = input_number("angle_degrees");
    long trained = input_integer("trained_positions");
    long target = input_integer("target_positions");
    double position = input_number("position");

    double factor = double(target) / double(trained);
    answer("interpolation_factor", factor);
    answer("neighbour_angle_degrees", angle / factor);
    double landed = position * factor;
    answer("landed_position", landed);
    answer("landed_angle_degrees", landed * angle);
    answer("unscaled_angle_degrees", position * angle);
}
