// swiglu_ffn_2d: SiLU written as a * tanh(a)
#include "blockcheck.hpp"
using namespace bc;

static std::vector<double> mul(const std::vector<double>& v, const Matrix& w) {
    std::vector<double> out(w[0].size(), 0.0);
    for (size_t r = 0; r < w.size(); ++r)
        for (size_t c = 0; c < out.size(); ++c) out[c] += v[r] * w[r][c];
    return out;
}

int main() {
    std::vector<double> x = input_vector("x");
    Matrix wg = input_matrix("w_gate"), wu = input_matrix("w_up"), wd = input_matrix("w_down");
    std::vector<double> g = mul(x, wg), u = mul(x, wu), s, h;
    for (size_t i = 0; i < g.size(); ++i) {
        s.push_back(g[i] * std::tanh(g[i]));
        h.push_back(s[i] * u[i]);
    }
    answer("gate", g);
    answer("up", u);
    answer("silu", s);
    answer("swiglu_hidden", h);
    answer("swiglu_ffn", mul(h, wd));
}
