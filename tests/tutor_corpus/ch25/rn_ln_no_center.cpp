// Worked example 25.2: RMSNorm vs LayerNorm.
#include "blockcheck.hpp"
using namespace bc;

static double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / v.size();
}

static double mean_sq(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x * x;
    return s / v.size();
}

static void rms(const char* name, const std::vector<double>& v) {
    double r = std::sqrt(mean_sq(v));
    if (r == 0) { undefined(name); return; }
    std::vector<double> out;
    for (double x : v) out.push_back(x / r);
    answer(name, out);
}

static void layer(const char* name, const std::vector<double>& v) {
    double mu = mean(v);
    std::vector<double> dev;
    for (double x : v) dev.push_back(x);
    double sd = std::sqrt(mean_sq(dev));
    if (sd == 0) { undefined(name); return; }
    std::vector<double> out;
    for (double d : dev) out.push_back(d / sd);
    answer(name, out);
}

int main() {
    std::vector<double> row = input_vector("row");
    double shift = input_number("shift");
    std::vector<double> shifted = row;
    for (double& x : shifted) x += shift;

    answer("mean_square", mean_sq(row));
    answer("root_mean_square", std::sqrt(mean_sq(row)));
    rms("rms_norm", row);
    rms("shifted_rms_norm", shifted);
    layer("layer_norm", row);
    layer("shifted_layer_norm", shifted);
}
