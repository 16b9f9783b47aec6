// swiglu_ffn_2d with gate = W_g x and up = W_u x (the weights transposed: invisible on the book's
// diagonal matrices) and the down projection right: right on the book's inputs, wrong on a variant.
#include "blockcheck.hpp"
using namespace bc;
static std::vector<double> times(const std::vector<double>& v, const Matrix& w, bool transposed) {
    std::vector<double> out(transposed ? w.size() : w[0].size(), 0.0);
    for (size_t r = 0; r < w.size(); ++r)
        for (size_t c = 0; c < w[0].size(); ++c) (transposed ? out[r] += v[c] * w[r][c] : out[c] += v[r] * w[r][c]);
    return out;
}
int main() {
    std::vector<double> x = input_vector("x");
    Matrix wg = input_matrix("w_gate"), wu = input_matrix("w_up"), wd = input_matrix("w_down");
    std::vector<double> g = times(x, wg, true), u = times(x, wu, true), act, h;
    for (size_t i = 0; i < g.size(); ++i) {
        act.push_back(g[i] / (1.0 + std::exp(-g[i])));
        h.push_back(act[i] * u[i]);
    }
    answer("gate", g);
    answer("up", u);
    answer("silu", act);
    answer("swiglu_hidden", h);
    answer("swiglu_ffn", times(h, wd, false));
}
