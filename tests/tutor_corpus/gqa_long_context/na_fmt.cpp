// ntk_aware_scaling: right, own printf
#include "blockcheck.hpp"
#include <cmath>
#include <cstdio>
using namespace bc;

int main() {
    double base = input_number("base"), s = input_number("factor");
    int d = (int)input_integer("head_dim");
    double exponent = (double)d / (d - 2);
    double nb = base * std::pow(s, exponent);
    double first = 1.0, last = 1.0 / std::pow(base, (d - 2.0) / d);
    double nfirst = 1.0, nlast = 1.0 / std::pow(nb, (d - 2.0) / d);
    std::printf("ntk_base = %.9f\n", nb);
    std::printf("first_inverse_frequency = %.9f\n", first);
    std::printf("last_inverse_frequency = %.12e\n", last);
    std::printf("ntk_first_inverse_frequency = %.9f\n", nfirst);
    std::printf("ntk_last_inverse_frequency = %.12e\n", nlast);
    std::printf("last_pair_slowdown = %.9f\n", last / nlast);
    std::printf("linear_first_inverse_frequency = %.9f\n", first / s);
}
