// ntk_vs_linear: pairs numbered 1 .. d/2
#include "blockcheck.hpp"
using namespace bc;

int main() {
    double base = input_number("base");
    long d = input_integer("head_dim");
    double s = input_number("factor");
    double nb = base * std::pow(s, double(d) / (d - 2));
    std::vector<double> inv, lin, ntk, lin_slow, ntk_slow;
    for (long i = 1; i <= d / 2; ++i) {
        double e = -2.0 * i / d;
        inv.push_back(std::pow(base, e));
        lin.push_back(inv.back() / s);
        ntk.push_back(std::pow(nb, e));
        lin_slow.push_back(inv.back() / lin.back());
        ntk_slow.push_back(inv.back() / ntk.back());
    }
    answer("inverse_frequencies", inv);
    answer("linear_inverse_frequencies", lin);
    answer("ntk_inverse_frequencies", ntk);
    answer("linear_slowdown", lin_slow);
    answer("ntk_slowdown", ntk_slow);
    answer_choice("keeps_fastest_pair", "B");
}
