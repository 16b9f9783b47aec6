// Solved: NTK-aware against linear, as a student would write it.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    double base = input_number("base");
    long d = input_integer("head_dim");
    double s = input_number("factor");
    double ntk_base = base * std::pow(s, double(d) / (d - 2));

    std::vector<double> inv, linear, ntk, linear_slow, ntk_slow;
    for (long i = 0; i < d / 2; ++i) {
        double e = -2.0 * i / d;
        inv.push_back(std::pow(base, e));
        linear.push_back(inv.back() / s);
        ntk.push_back(std::pow(ntk_base, e));
        linear_slow.push_back(inv.back() / linear.back());
        ntk_slow.push_back(inv.back() / ntk.back());
    }
    answer("inverse_frequencies", inv);
    answer("linear_inverse_frequencies", linear);
    answer("ntk_inverse_frequencies", ntk);
    answer("linear_slowdown", linear_slow);
    answer("ntk_slowdown", ntk_slow);
    answer_choice("keeps_fastest_pair", "B");
}
