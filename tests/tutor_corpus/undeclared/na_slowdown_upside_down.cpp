// ntk_aware_scaling: the last pair's slowdown as NTK speed over plain speed
#include "blockcheck.hpp"
using namespace bc;

int main() {
    double base = input_number("base");
    double d = input_integer("head_dim");
    double s = input_number("factor");
    double ntk = base * std::pow(s, d / (d - 2));
    double last = std::pow(base, -(d - 2) / d), ntk_last = std::pow(ntk, -(d - 2) / d);
    answer("ntk_base", ntk);
    answer("first_inverse_frequency", 1.0);
    answer("last_inverse_frequency", last);
    answer("ntk_first_inverse_frequency", 1.0);
    answer("ntk_last_inverse_frequency", ntk_last);
    answer("last_pair_slowdown", ntk_last / last);
    answer("linear_first_inverse_frequency", 1.0 / s);
}
