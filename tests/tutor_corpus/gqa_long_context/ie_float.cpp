// interpolation_every_frequency: right, in float
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

int main() {
    float base = (float)input_number("base");
    int d = (int)input_integer("head_dim");
    float factor = (float)input_number("factor");
    float pos = (float)input_number("position");
    std::vector<float> inv, inv2, a, a2, s;
    for (int i = 0; i < d / 2; ++i) {
        float f = 1.0f / std::pow(base, (2.0f * i) / d);
        inv.push_back(f);
        inv2.push_back(f / factor);
        a.push_back(pos * f);
        a2.push_back(pos / factor * f);
        s.push_back(factor);
    }
    answer("inverse_frequencies", inv);
    answer("interpolated_inverse_frequencies", inv2);
    answer("angles", a);
    answer("interpolated_angles", a2);
    answer("slowdown", s);
    answer_choice("which_pairs_slow_down", "B");
}
