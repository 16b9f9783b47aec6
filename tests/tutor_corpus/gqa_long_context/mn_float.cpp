// misconceptions_by_numbers: right, in float
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

int main() {
    std::vector<double> g = input_vector("gate_values"), r = input_vector("row");
    std::vector<float> sig, silu, y;
    for (double a : g) { float s = 1.0f / (1.0f + expf(-(float)a)); sig.push_back(s); silu.push_back((float)a * s); }
    answer("sigmoid", sig);
    answer("silu", silu);
    bool ok = true;
    for (float v : silu) ok = ok && v >= 0 && v <= 1;
    answer("silu_is_pass_ratio", ok);
    float ss = 0;
    for (double v : r) ss += (float)(v * v);
    float rms = sqrtf(ss / r.size());
    float m = 0;
    for (double v : r) { y.push_back((float)v / rms); m += (float)v / rms; }
    answer("rms_norm", y);
    answer("rms_norm_mean", m / r.size());
    answer("rms_norm_has_zero_mean", fabsf(m / r.size()) < 1e-6f);
}
