// misconceptions_by_numbers: the gate's pass ratio written with tanh instead of the logistic sigmoid
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

int main() {
    std::vector<double> gate = input_vector("gate_values");
    std::vector<double> row = input_vector("row");

    std::vector<double> ratio, silu;
    bool within = true;
    for (double a : gate) {
        ratio.push_back(std::tanh(a));  // "the squashing function"
        double s = a / (1.0 + std::exp(-a));
        silu.push_back(s);
        if (s < 0.0 || s > 1.0) within = false;
    }
    answer("sigmoid", ratio);
    answer("silu", silu);
    answer("silu_is_pass_ratio", within);

    double sq = 0;
    for (double v : row) sq += v * v;
    double rms = std::sqrt(sq / row.size());
    std::vector<double> y;
    double total = 0;
    for (double v : row) {
        y.push_back(v / rms);
        total += v / rms;
    }
    double mean = total / row.size();
    answer("rms_norm", y);
    answer("rms_norm_mean", mean);
    answer("rms_norm_has_zero_mean", std::fabs(mean) < 1e-12);
}
