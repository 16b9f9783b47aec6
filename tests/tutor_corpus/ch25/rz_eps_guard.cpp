// Exercise 25.6-2: the RMSNorm denominator and the zero row.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> row = input_vector("row");
    std::vector<double> zero_row = input_vector("zero_row");

    double ms = 0;
    for (double x : row) ms += x * x;
    ms /= row.size();
    double rms = std::sqrt(ms + 1e-6);
    std::vector<double> y;
    for (double x : row) y.push_back(x / rms);

    double zms = 0;
    for (double x : zero_row) zms += x * x;
    zms /= zero_row.size();

    answer("mean_square", ms);
    answer("root_mean_square", rms);
    answer("rms_norm", y);
    {
        std::vector<double> z;
        for (double x : zero_row) z.push_back(x / std::sqrt(zms + 1e-6));
        answer("zero_row_rms_norm", z);
    }
    answer_choice("why_root_of_mean", "B");
}
