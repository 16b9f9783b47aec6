// swiglu_identity_down: SiLU applied to gate times up instead of SiLU(gate) times up
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> x = input_vector("x");
    Matrix wg = input_matrix("w_gate"), wu = input_matrix("w_up");
    std::vector<double> out;
    for (size_t j = 0; j < wg[0].size(); ++j) {
        double g = 0, u = 0;
        for (size_t i = 0; i < x.size(); ++i) {
            g += x[i] * wg[i][j];
            u += x[i] * wu[i][j];
        }
        double p = g * u;
        out.push_back(p / (1 + std::exp(-p)));  // W_down is the identity
    }
    answer("swiglu_ffn", out);
    answer("mixes_positions", false);
}
