// Exercise: RMSNorm and LayerNorm under a shift of both coordinates.
#include "blockcheck.hpp"
using namespace bc;

std::vector<double> rmsnorm(std::vector<double> v) {
    double ss = 0;
    for (double x : v) ss += x * x;
    double r = std::sqrt(ss / v.size());
    for (double& x : v) x /= r;
    return v;
}

std::vector<double> layernorm(std::vector<double> v) {
    double mu = 0;
    for (double x : v) mu += x;
    mu /= v.size();
    double var = 0;
    for (double x : v) var += (x - mu) * (x - mu);
    var /= v.size() - 1;
    for (double& x : v) x = (x - mu) / std::sqrt(var);
    return v;
}

bool same(const std::vector<double>& a, const std::vector<double>& b) {
    for (size_t i = 0; i < a.size(); i++)
        if (std::fabs(a[i] - b[i]) > 1e-9) return false;
    return true;
}

int main() {
    std::vector<double> row = input_vector("row");
    double shift = input_number("shift");
    std::vector<double> moved = row;
    for (double& x : moved) x += shift;

    std::vector<double> r1 = rmsnorm(row), r2 = rmsnorm(moved);
    std::vector<double> l1 = layernorm(row), l2 = layernorm(moved);
    answer("rms_norm", r1);
    answer("shifted_rms_norm", r2);
    answer("layer_norm", l1);
    answer("shifted_layer_norm", l2);
    answer("rms_norm_keeps_output", same(r1, r2));
    answer("layer_norm_keeps_output", same(l1, l2));
}
