// rms_norm_vs_layer_norm: the shifted RMSNorm is the RMSNorm of the row with the shift added afterwards
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

static std::vector<double> rms_norm(const std::vector<double>& x) {
    double sum = 0;
    for (double v : x) sum += v * v;
    double rms = std::sqrt(sum / x.size());
    std::vector<double> y;
    for (double v : x) y.push_back(v / rms);
    return y;
}

static std::vector<double> layer_norm(const std::vector<double>& x) {
    double mean = 0;
    for (double v : x) mean += v;
    mean /= x.size();
    double var = 0;
    for (double v : x) var += (v - mean) * (v - mean);
    double sd = std::sqrt(var / x.size());
    std::vector<double> y;
    for (double v : x) y.push_back((v - mean) / sd);
    return y;
}

int main() {
    std::vector<double> row = input_vector("row");
    double shift = input_number("shift");
    double ms = 0;
    for (double v : row) ms += v * v;
    ms /= row.size();
    answer("mean_square", ms);
    answer("root_mean_square", std::sqrt(ms));
    std::vector<double> r = rms_norm(row);
    answer("rms_norm", r);
    for (double& v : r) v += shift;  // the shift moves the output
    answer("shifted_rms_norm", r);
    std::vector<double> moved = row;
    for (double& v : moved) v += shift;
    answer("layer_norm", layer_norm(row));
    answer("shifted_layer_norm", layer_norm(moved));
}
