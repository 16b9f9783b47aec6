// interpolation_every_frequency: slowdown taken as interpolated speed over plain speed
#include "blockcheck.hpp"
using namespace bc;

int main() {
    double base = input_number("base");
    long d = input_integer("head_dim");
    double factor = input_number("factor");
    double p = input_integer("position");

    std::vector<double> inv, inv_pi, angles, angles_pi, slowdown;
    for (long i = 0; i < d / 2; ++i) {
        double f = std::pow(base, -2.0 * i / d);
        double g = f / factor;
        inv.push_back(f);
        inv_pi.push_back(g);
        angles.push_back(p * f);
        angles_pi.push_back(p * g);
        slowdown.push_back(g / f);
    }
    answer("inverse_frequencies", inv);
    answer("interpolated_inverse_frequencies", inv_pi);
    answer("angles", angles);
    answer("interpolated_angles", angles_pi);
    answer("slowdown", slowdown);
    answer_choice("which_pairs_slow_down", "B");
}
