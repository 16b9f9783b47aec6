// A student who forgets to divide the position by the factor.
// expect: position_interpolation landed_angle_degrees angle_not_scaled
// inputs: book
#include "blockcheck.hpp"
using namespace bc;

int main() {
    double step = input_number("angle_degrees");
    double trained = input_integer("trained_positions"), target = input_integer("target_positions");
    double p = input_integer("position");
    double factor = target / trained;
    answer("interpolation_factor", factor);
    answer("neighbour_angle_degrees", step / factor);
    answer("landed_position", p / factor);
    answer("landed_angle_degrees", p * step);  // the factor never applied
    answer("unscaled_angle_degrees", p * step);
}
