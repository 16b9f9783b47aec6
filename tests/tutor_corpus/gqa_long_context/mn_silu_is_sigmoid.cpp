// misconceptions_by_numbers: SiLU printed as the sigmoid
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

int main() {
    std::vector<double> gate = input_vector("gate_values");
    std::vector<double> row = input_vector("row");

    std::vector<double> sig, silu;
    bool pass = true;
    for (double a : gate) {
        double s = 1.0 / (1.0 + std::exp(-a));
        sig.push_back(s);
        silu.push_back(s);
        if (s < 0 || s > 1) pass = false;
    }
    answer("sigmoid", sig);
    answer("silu", silu);
    answer("silu_is_pass_ratio", pass);

    double ms = 0;
    for (double v : row) ms += v * v;
    ms /= row.size();
    double rms = std::sqrt(ms + 0.0);
    std::vector<double> y;
    double mean = 0;
    for (double v : row) { y.push_back(v / rms); mean += v / rms; }
    mean /= row.size();
    answer("rms_norm", y);
    answer("rms_norm_mean", mean);
    answer("rms_norm_has_zero_mean", std::fabs(mean) < 1e-9);
}
