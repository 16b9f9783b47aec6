// rms_norm_vs_layer_norm: LayerNorm centres the row but divides by the row's RMS
#include "blockcheck.hpp"
using namespace bc;

static double rms(const std::vector<double>& x) {
    double s = 0;
    for (double v : x) s += v * v;
    return std::sqrt(s / x.size());
}

static void rms_norm(const char* name, const std::vector<double>& x) {
    double r = rms(x);
    if (r == 0) return undefined(name);
    std::vector<double> y;
    for (double v : x) y.push_back(v / r);
    answer(name, y);
}

static void layer_norm(const char* name, const std::vector<double>& x) {
    double mean = 0;
    for (double v : x) mean += v;
    mean /= x.size();
    double r = rms(x);  // the scale of the row
    if (r == 0) return undefined(name);
    std::vector<double> y;
    for (double v : x) y.push_back((v - mean) / r);
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
    rms_norm("rms_norm", row);
    rms_norm("shifted_rms_norm", moved);
    layer_norm("layer_norm", row);
    layer_norm("shifted_layer_norm", moved);
}
