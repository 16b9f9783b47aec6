// A student who normalises like LayerNorm (mean subtracted).
// expect: rms_norm_zero_row rms_norm mean_subtracted
// inputs: book
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> x = input_vector("row");
    std::vector<double> z = input_vector("zero_row");

    double ms = 0;
    for (double v : x) ms += v * v;
    ms /= x.size();
    double rms = std::sqrt(ms);
    std::vector<double> y;
    double mean = 0, var = 0;
    for (double v : x) mean += v;
    mean /= x.size();
    for (double v : x) var += (v - mean) * (v - mean);
    var /= x.size();
    for (double v : x) y.push_back((v - mean) / std::sqrt(var));  // LayerNorm
    answer("mean_square", ms);
    answer("root_mean_square", rms);
    answer("rms_norm", y);

    double zs = 0;
    for (double v : z) zs += v * v;
    if (zs == 0) {
        undefined("zero_row_rms_norm");  // 0 / 0 when epsilon is 0
    } else {
        double zr = std::sqrt(zs / z.size());
        std::vector<double> zy;
        for (double v : z) zy.push_back(v / zr);
        answer("zero_row_rms_norm", zy);
    }
    answer_choice("why_root_of_mean", "B");
}
