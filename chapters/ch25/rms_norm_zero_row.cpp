// Exercise 25.6-2: the RMSNorm denominator of a row, and a row of zeros.
// `./blockcheck show rms_norm_zero_row` prints the full task and the choices.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> row = input_vector("row");
    std::vector<double> zero_row = input_vector("zero_row");

    // Unit gains, epsilon 0. The denominator uses every coordinate of the row.

    // answer("mean_square", ...);
    // answer("root_mean_square", ...);
    // answer("rms_norm", ...);
    // answer("zero_row_rms_norm", ...);    // or undefined("zero_row_rms_norm") if there is no value
    // answer_choice("why_root_of_mean", "?");  // A, B or C
}
