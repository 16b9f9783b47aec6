// Worked example 25.3: SwiGLU FFN in two dimensions.
#include "blockcheck.hpp"
using namespace bc;

std::vector<double> mul(const std::vector<double>& x, const Matrix& w) {
    std::vector<double> y(w[0].size(), 0.0);
    for (size_t r = 0; r < w.size(); ++r)
        for (size_t c = 0; c < w[r].size(); ++c) y[c] += x[r] * w[r][c];
    return y;
}

double silu(double a) { return a / (1.0 + std::exp(-a)); }

int main() {
    std::vector<double> x = input_vector("x");
    Matrix w_gate = input_matrix("w_gate");
    Matrix w_up = input_matrix("w_up");
    Matrix w_down = input_matrix("w_down");

    std::vector<double> gate = mul(x, w_gate);
    std::vector<double> up = mul(x, w_up);
    std::vector<double> act, hidden;
    for (size_t i = 0; i < gate.size(); ++i) {
        act.push_back(silu(gate[i]));
        hidden.push_back(act[i] * up[i]);
    }
    answer("gate", gate);
    answer("up", up);
    answer("silu", act);
    answer("swiglu_hidden", hidden);
    answer("swiglu_ffn", mul(hidden, w_down));
}
