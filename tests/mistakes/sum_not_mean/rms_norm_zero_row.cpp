// A student who sums the squares and forgets to divide by the width.
// expect: rms_norm_zero_row mean_square sum_not_mean
// inputs: book
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> x = input_vector("row");
    std::vector<double> z = input_vector("zero_row");

    double ms = 0;
    for (double v : x) ms += v * v;
    double rms = std::sqrt(ms);
    std::vector<double> y;
    for (double v : x) y.push_back(v / rms);
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
