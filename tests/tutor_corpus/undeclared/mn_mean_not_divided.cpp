// misconceptions_by_numbers: the mean of the normalised row summed, never divided by the count
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> a = input_vector("gate_values"), row = input_vector("row");
    std::vector<double> sigmoid, silu;
    for (double x : a) {
        sigmoid.push_back(1 / (1 + std::exp(-x)));
        silu.push_back(x * sigmoid.back());
    }
    double ms = 0;
    for (double x : row) ms += x * x;
    double rms = std::sqrt(ms / row.size()), mean = 0;
    std::vector<double> normed;
    for (double x : row) {
        normed.push_back(x / rms);
        mean += normed.back();
    }
    answer("sigmoid", sigmoid);
    answer("silu", silu);
    bool within = true;
    for (double s : silu) within = within && s >= 0 && s <= 1;
    answer("silu_is_pass_ratio", within);
    answer("rms_norm", normed);
    answer("rms_norm_mean", mean);
    answer("rms_norm_has_zero_mean", std::fabs(mean) < 1e-12);
}
