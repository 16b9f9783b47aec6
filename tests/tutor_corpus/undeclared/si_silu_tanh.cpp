// swiglu_identity_down: SiLU written as g * tanh(g)
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

int main() {
    std::vector<double> x = input_vector("x");
    Matrix wg = input_matrix("w_gate");
    Matrix wu = input_matrix("w_up");
    std::vector<double> out;
    for (size_t j = 0; j < wg[0].size(); ++j) {
        double g = 0, u = 0;
        for (size_t i = 0; i < x.size(); ++i) {
            g += x[i] * wg[i][j];
            u += x[i] * wu[i][j];
        }
        out.push_back(g * std::tanh(g) * u);  // the down projection is the identity
    }
    answer("swiglu_ffn", out);
    answer("mixes_positions", false);
}
