// interpolation_every_frequency: multiplies by the factor instead of dividing
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

int main() {
    double base = input_number("base");
    long head_dim = input_integer("head_dim");
    double factor = input_number("factor");
    double position = input_number("position");

    std::vector<double> inv, inv_interp, ang, ang_interp, slow;
    for (long i = 0; i < head_dim / 2; ++i) {
        double f = std::pow(base, -2.0 * i / head_dim);
        double fi = f * factor;
        inv.push_back(f);
        inv_interp.push_back(fi);
        ang.push_back(position * f);
        ang_interp.push_back(position * fi);
        slow.push_back(f / fi);
    }
    answer("inverse_frequencies", inv);
    answer("interpolated_inverse_frequencies", inv_interp);
    answer("angles", ang);
    answer("interpolated_angles", ang_interp);
    answer("slowdown", slow);
    answer_choice("which_pairs_slow_down", "B");
}
