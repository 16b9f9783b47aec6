// RMSNorm vs LayerNorm under a shift, float.
#include "blockcheck.hpp"
using namespace bc;

std::vector<float> rms(std::vector<float> v) {
    float ms = 0.0f;
    for (float x : v) ms += x * x / v.size();
    for (float& x : v) x = x / std::sqrt(ms);
    return v;
}

std::vector<float> ln(std::vector<float> v) {
    float mu = 0.0f;
    for (float x : v) mu += x / v.size();
    float var = 0.0f;
    for (float x : v) var += (x - mu) * (x - mu) / v.size();
    for (float& x : v) x = (x - mu) / std::sqrt(var);
    return v;
}

int main() {
    std::vector<double> in = input_vector("row");
    float shift = float(input_number("shift"));
    std::vector<float> row(in.begin(), in.end()), moved;
    for (float x : row) moved.push_back(x + shift);
    answer("rms_norm", rms(row));
    answer("shifted_rms_norm", rms(moved));
    answer("layer_norm", ln(row));
    answer("shifted_layer_norm", ln(moved));
    answer("rms_norm_keeps_output", false);
    answer("layer_norm_keeps_output", true);
}
