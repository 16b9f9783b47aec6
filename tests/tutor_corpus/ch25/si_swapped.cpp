// Exercise: SwiGLU with W_down = identity.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> x = input_vector("x");
    Matrix wg = input_matrix("w_gate");
    Matrix wu = input_matrix("w_up");
    size_t F = wg[0].size();
    std::vector<double> out(F);
    for (size_t j = 0; j < F; ++j) {
        double g = 0, u = 0;
        for (size_t i = 0; i < x.size(); ++i) {
            g += x[i] * wg[i][j];
            u += x[i] * wu[i][j];
        }
        double silu = u / (1 + std::exp(-u));
        out[j] = silu * g;  // W_down = I leaves the hidden vector as it is
    }
    answer("swiglu_ffn", out);
    answer("mixes_positions", false);
}
