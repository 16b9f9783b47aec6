// 25.3 written with plain arrays and printf (float).
#include "blockcheck.hpp"
#include <cstdio>
using namespace bc;

static void show(const char* name, const float* v) { std::printf("%s = [%.8f, %.8f]\n", name, v[0], v[1]); }

int main() {
    std::vector<double> xin = input_vector("x");
    Matrix G = input_matrix("w_gate"), U = input_matrix("w_up"), D = input_matrix("w_down");
    float x[2] = {float(xin[0]), float(xin[1])};
    float g[2], u[2], s[2], h[2], y[2];
    for (int j = 0; j < 2; j++) {
        g[j] = x[0] * float(G[0][j]) + x[1] * float(G[1][j]);
        u[j] = x[0] * float(U[0][j]) + x[1] * float(U[1][j]);
        s[j] = g[j] / (1.0f + std::exp(-g[j]));
        h[j] = s[j] * u[j];
    }
    for (int j = 0; j < 2; j++) y[j] = h[0] * float(D[0][j]) + h[1] * float(D[1][j]);
    show("gate", g);
    show("up", u);
    show("silu", s);
    show("swiglu_hidden", h);
    show("swiglu_ffn", y);
}
