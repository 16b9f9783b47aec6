// rms_norm_shift: normalises the row, then adds the shift to the normalised output
#include "blockcheck.hpp"
using namespace bc;

static std::vector<double> rmsnorm(const std::vector<double>& x) {
    double s = 0;
    for (double v : x) s += v * v;
    double r = std::sqrt(s / x.size());
    std::vector<double> y;
    for (double v : x) y.push_back(v / r);
    return y;
}

static std::vector<double> layernorm(const std::vector<double>& x) {
    double mu = 0;
    for (double v : x) mu += v;
    mu /= x.size();
    double s = 0;
    for (double v : x) s += (v - mu) * (v - mu);
    double sd = std::sqrt(s / x.size());
    std::vector<double> y;
    for (double v : x) y.push_back((v - mu) / sd);
    return y;
}

static std::vector<double> plus(std::vector<double> y, double d) {
    for (double& v : y) v += d;
    return y;
}

static bool same(const std::vector<double>& a, const std::vector<double>& b) {
    for (size_t i = 0; i < a.size(); ++i)
        if (std::fabs(a[i] - b[i]) > 1e-9) return false;
    return true;
}

int main() {
    std::vector<double> x = input_vector("row");
    double d = input_number("shift");
    std::vector<double> r1 = rmsnorm(x), l1 = layernorm(x);
    std::vector<double> r2 = plus(r1, d), l2 = plus(l1, d);  // shifted outputs
    answer("rms_norm", r1);
    answer("shifted_rms_norm", r2);
    answer("layer_norm", l1);
    answer("shifted_layer_norm", l2);
    answer("rms_norm_keeps_output", same(r1, r2));
    answer("layer_norm_keeps_output", same(l1, l2));
}
