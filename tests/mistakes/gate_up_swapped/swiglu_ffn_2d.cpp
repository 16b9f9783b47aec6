// A student who applies SiLU to x W_up and multiplies by x W_gate.
// expect: swiglu_ffn_2d swiglu_hidden gate_up_swapped
// inputs: book
#include "blockcheck.hpp"
using namespace bc;

static std::vector<double> times(const std::vector<double>& v, const Matrix& w) {
    std::vector<double> out(w[0].size(), 0.0);
    for (size_t r = 0; r < w.size(); ++r)
        for (size_t c = 0; c < out.size(); ++c) out[c] += v[r] * w[r][c];
    return out;
}

int main() {
    std::vector<double> x = input_vector("x");
    Matrix wg = input_matrix("w_gate"), wu = input_matrix("w_up"), wd = input_matrix("w_down");

    std::vector<double> g = times(x, wg), u = times(x, wu);
    std::vector<double> act, h;
    for (size_t i = 0; i < g.size(); ++i) {
        act.push_back(u[i] / (1.0 + std::exp(-u[i])));  // SiLU on the up projection
        h.push_back(act[i] * g[i]);
    }
    answer("gate", g);
    answer("up", u);
    answer("silu", act);
    answer("swiglu_hidden", h);
    answer("swiglu_ffn", times(h, wd));
}
