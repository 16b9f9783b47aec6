// SwiGLU, identity down projection, float.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> x = input_vector("x");
    Matrix wg = input_matrix("w_gate"), wu = input_matrix("w_up");
    std::vector<float> y;
    for (int j = 0; j < 2; ++j) {
        float g = float(x[0]) * float(wg[0][j]) + float(x[1]) * float(wg[1][j]);
        float u = float(x[0]) * float(wu[0][j]) + float(x[1]) * float(wu[1][j]);
        float sig = 1.0f / (1.0f + expf(-g));
        y.push_back(g * sig * u);
    }
    Matrix I = {{1, 0}, {0, 1}};
    std::vector<float> out(2, 0.0f);
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 2; ++c) out[c] += y[r] * float(I[r][c]);
    answer("swiglu_ffn", out);
    answer("mixes_positions", false);
}
