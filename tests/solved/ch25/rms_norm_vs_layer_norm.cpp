// Solved: example 25.2, as a student would write it.
#include "blockcheck.hpp"
using namespace bc;

static void print_rms_norm(const char* name, const std::vector<double>& x) {
    double sq = 0;
    for (double v : x) sq += v * v;
    double denom = std::sqrt(sq / x.size());
    if (denom == 0) return undefined(name);
    std::vector<double> y;
    for (double v : x) y.push_back(v / denom);
    answer(name, y);
}

static void print_layer_norm(const char* name, const std::vector<double>& x) {
    double mean = 0;
    for (double v : x) mean += v;
    mean /= x.size();
    double var = 0;
    for (double v : x) var += (v - mean) * (v - mean);
    double denom = std::sqrt(var / x.size());
    if (denom == 0) return undefined(name);
    std::vector<double> y;
    for (double v : x) y.push_back((v - mean) / denom);
    answer(name, y);
}

int main() {
    std::vector<double> row = input_vector("row");
    double shift = input_number("shift");
    std::vector<double> moved = row;
    for (double& v : moved) v += shift;

    double ms = 0;
    for (double v : row) ms += v * v;
    ms /= row.size();
    answer("mean_square", ms);
    answer("root_mean_square", std::sqrt(ms));
    print_rms_norm("rms_norm", row);
    print_rms_norm("shifted_rms_norm", moved);
    print_layer_norm("layer_norm", row);
    print_layer_norm("shifted_layer_norm", moved);
}
