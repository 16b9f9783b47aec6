// position_interpolation: the landed position computed in integers (p * trained / target)
#include "blockcheck.hpp"
using namespace bc;

int main() {
    double step = input_number("angle_degrees");
    long trained = input_integer("trained_positions"), target = input_integer("target_positions");
    long p = input_integer("position");
    double factor = double(target) / trained;
    double landed = p * trained / target;
    answer("interpolation_factor", factor);
    answer("neighbour_angle_degrees", step / factor);
    answer("landed_position", landed);
    answer("landed_angle_degrees", landed * step);
    answer("unscaled_angle_degrees", p * step);
}
