// ntk_vs_linear: inverse frequencies as base^(+2i/d)
#include "blockcheck.hpp"
using namespace bc;

int main() {
    double base = input_number("base");
    long d = input_integer("head_dim");
    double s = input_number("factor");
    double nb = base * std::pow(s, double(d) / (d - 2));
    std::vector<double> inv, lin, ntk, lin_slow, ntk_slow;
    for (long i = 0; i < d / 2; ++i) {
        double e = 2.0 * i / d;
        double f = std::pow(base, e), fn = std::pow(nb, e);
        inv.push_back(f);
        lin.push_back(f / s);
        ntk.push_back(fn);
        lin_slow.push_back(f / (f / s));
        ntk_slow.push_back(f / fn);
    }
    answer("inverse_frequencies", inv);
    answer("linear_inverse_frequencies", lin);
    answer("ntk_inverse_frequencies", ntk);
    answer("linear_slowdown", lin_slow);
    answer("ntk_slowdown", ntk_slow);
    answer_choice("keeps_fastest_pair", "B");
}
