// rms_norm_zero_row: the root taken of the sum of squares, then divided by the count
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> x = input_vector("row");
    std::vector<double> z = input_vector("zero_row");
    double ss = 0;
    for (double v : x) ss += v * v;
    double ms = ss / x.size();
    double rms = std::sqrt(ss) / x.size();
    std::vector<double> y;
    for (double v : x) y.push_back(v / rms);
    answer("mean_square", ms);
    answer("root_mean_square", rms);
    answer("rms_norm", y);
    double zs = 0;
    for (double v : z) zs += v * v;
    if (zs == 0) {
        undefined("zero_row_rms_norm");
    } else {
        double zr = std::sqrt(zs) / z.size();
        std::vector<double> zy;
        for (double v : z) zy.push_back(v / zr);
        answer("zero_row_rms_norm", zy);
    }
    answer_choice("why_root_of_mean", "B");
}
