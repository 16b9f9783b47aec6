// Exercise 25.6-3: shift a row; which normalisation keeps its output?
// `./blockcheck show rms_norm_shift` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> row = input_vector("row");
    [[maybe_unused]] double shift = input_number("shift");  // added to both coordinates

    // Unit gains, no bias, epsilon 0.

    // answer("rms_norm", ...);
    // answer("shifted_rms_norm", ...);
    // answer("layer_norm", ...);
    // answer("shifted_layer_norm", ...);
    // answer("rms_norm_keeps_output", ...);    // true or false
    // answer("layer_norm_keeps_output", ...);  // true or false
}
