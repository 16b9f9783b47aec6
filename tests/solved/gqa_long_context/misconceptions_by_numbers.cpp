// Solved: two misconceptions checked with numbers, as a student would write it.
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
        mean += normed.back() / row.size();
    }
    answer("sigmoid", sigmoid);
    answer("silu", silu);
    answer("silu_is_pass_ratio", false);
    answer("rms_norm", normed);
    answer("rms_norm_mean", mean);
    answer("rms_norm_has_zero_mean", false);
}
