// Solved: exercise 25.6-4, as a student would write it.
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
        out.push_back(g / (1 + std::exp(-g)) * u);  // the identity W_down passes this through
    }
    answer("swiglu_ffn", out);
    answer("mixes_positions", false);  // only x's own coordinates are ever read
}
