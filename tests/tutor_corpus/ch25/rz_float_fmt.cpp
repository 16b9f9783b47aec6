// 25.6-2 with my own output lines, in float.
#include "blockcheck.hpp"
#include <cstdio>
using namespace bc;

int main() {
    std::vector<double> row = input_vector("row");
    std::vector<double> zero = input_vector("zero_row");
    float a = row[0], b = row[1];
    float ms = (a * a + b * b) / 2;
    float r = std::sqrt(ms);
    std::printf("mean_square = %.6f\n", ms);
    std::printf("root_mean_square = %.6f\n", r);
    std::printf("rms_norm = [%.6f, %.6f]\n", a / r, b / r);
    float zms = float(zero[0] * zero[0] + zero[1] * zero[1]) / 2;
    if (zms > 0) std::printf("zero_row_rms_norm = [%.6f, %.6f]\n", zero[0] / std::sqrt(zms), zero[1] / std::sqrt(zms));
    else std::printf("zero_row_rms_norm = undefined\n");
    std::printf("why_root_of_mean = B\n");
}
