// ntk_vs_linear: exponent -i/d
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

int main() {
    double base = input_number("base");
    long d = input_integer("head_dim");
    double factor = input_number("factor");
    double ntk_base = base * std::pow(factor, (double)d / (d - 2));

    std::vector<double> inv, lin, ntk, lin_slow, ntk_slow;
    for (long i = 0; i < d / 2; ++i) {
        double exponent = -1.0 * i / d;
        inv.push_back(std::pow(base, exponent));
        lin.push_back(std::pow(base, exponent) / factor);
        ntk.push_back(std::pow(ntk_base, exponent));
    }
    for (size_t i = 0; i < inv.size(); ++i) {
        lin_slow.push_back(inv[i] / lin[i]);
        ntk_slow.push_back(inv[i] / ntk[i]);
    }
    answer("inverse_frequencies", inv);
    answer("linear_inverse_frequencies", lin);
    answer("ntk_inverse_frequencies", ntk);
    answer("linear_slowdown", lin_slow);
    answer("ntk_slowdown", ntk_slow);
    answer_choice("keeps_fastest_pair", "B");
}
