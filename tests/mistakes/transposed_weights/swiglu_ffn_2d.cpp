// A student who multiplies W x instead of x W for the gate and up projections.
// expect: swiglu_ffn_2d gate transposed_weights
// inputs: variant 3
#include "blockcheck.hpp"
using namespace bc;

static std::vector<double> times(const std::vector<double>& v, const Matrix& w) {
    std::vector<double> out(w[0].size(), 0.0);
    for (size_t r = 0; r < w.size(); ++r)
        for (size_t c = 0; c < out.size(); ++c) out[c] += v[r] * w[r][c];
    return out;
}

// W x instead of x W: the weight read column by column.
static std::vector<double> times_transposed(const std::vector<double>& v, const Matrix& w) {
    std::vector<double> out(w.size(), 0.0);
    for (size_t r = 0; r < w.size(); ++r)
        for (size_t c = 0; c < v.size(); ++c) out[r] += w[r][c] * v[c];
    return out;
}

int main() {
    std::vector<double> x = input_vector("x");
    Matrix wg = input_matrix("w_gate"), wu = input_matrix("w_up"), wd = input_matrix("w_down");

    std::vector<double> g = times_transposed(x, wg), u = times_transposed(x, wu);
    std::vector<double> act, h;
    for (size_t i = 0; i < g.size(); ++i) {
        act.push_back(g[i] / (1.0 + std::exp(-g[i])));
        h.push_back(act[i] * u[i]);
    }
    answer("gate", g);
    answer("up", u);
    answer("silu", act);
    answer("swiglu_hidden", h);
    answer("swiglu_ffn", times(h, wd));
}
