// A student who computes in float: right to six decimals, not to double's 16 digits.
// expect: swiglu_ffn_2d * float_precision
// inputs: book
#include "blockcheck.hpp"
using namespace bc;

static std::vector<float> times(const std::vector<float>& v, const Matrix& w) {
    std::vector<float> out(w[0].size(), 0.0f);
    for (size_t r = 0; r < w.size(); ++r)
        for (size_t c = 0; c < out.size(); ++c) out[c] += v[r] * float(w[r][c]);
    return out;
}

int main() {
    std::vector<double> input = input_vector("x");
    std::vector<float> x(input.begin(), input.end());
    Matrix wg = input_matrix("w_gate"), wu = input_matrix("w_up"), wd = input_matrix("w_down");

    std::vector<float> g = times(x, wg), u = times(x, wu);
    std::vector<float> act, h;
    for (size_t i = 0; i < g.size(); ++i) {
        act.push_back(g[i] / (1.0f + std::exp(-g[i])));
        h.push_back(act[i] * u[i]);
    }
    answer("gate", g);
    answer("up", u);
    answer("silu", act);
    answer("swiglu_hidden", h);
    answer("swiglu_ffn", times(h, wd));
}
