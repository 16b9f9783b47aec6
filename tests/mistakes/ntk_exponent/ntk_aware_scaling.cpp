// A student who multiplies the base by s itself.
// expect: ntk_aware_scaling ntk_base ntk_exponent
// inputs: book
#include "blockcheck.hpp"
using namespace bc;

int main() {
    double base = input_number("base");
    double d = input_integer("head_dim");
    double s = input_number("factor");

    double ntk = base * s;  // the exponent d/(d-2) dropped
    double last = std::pow(base, -(d - 2) / d), ntk_last = std::pow(ntk, -(d - 2) / d);
    answer("ntk_base", ntk);
    answer("first_inverse_frequency", std::pow(base, 0.0));
    answer("last_inverse_frequency", last);
    answer("ntk_first_inverse_frequency", std::pow(ntk, 0.0));
    answer("ntk_last_inverse_frequency", ntk_last);
    answer("last_pair_slowdown", last / ntk_last);
    answer("linear_first_inverse_frequency", 1.0 / s);
}
