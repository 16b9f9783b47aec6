// ntk_aware_scaling: NTK exponent (d-2)/d instead of d/(d-2)
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

int main() {
    double base = input_number("base");
    long d = input_integer("head_dim");
    double s = input_number("factor");

    double ntk_base = base * std::pow(s, double(d - 2) / double(d));
    long last = d / 2 - 1;
    auto inv_freq = [&](double b, long i) { return std::pow(b, -2.0 * double(i) / double(d)); };
    answer("ntk_base", ntk_base);
    answer("first_inverse_frequency", inv_freq(base, 0));
    answer("last_inverse_frequency", inv_freq(base, last));
    answer("ntk_first_inverse_frequency", inv_freq(ntk_base, 0));
    answer("ntk_last_inverse_frequency", inv_freq(ntk_base, last));
    answer("last_pair_slowdown", inv_freq(base, last) / inv_freq(ntk_base, last));
    answer("linear_first_inverse_frequency", inv_freq(base, 0) / s);
}
