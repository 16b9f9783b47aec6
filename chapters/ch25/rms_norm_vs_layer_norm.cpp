// Worked example 25.2: RMSNorm and LayerNorm of a token row and of the same row shifted.
// `./blockcheck show rms_norm_vs_layer_norm` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> row = input_vector("row");  // one token row: [C]
    [[maybe_unused]] double shift = input_number("shift");  // added to every coordinate

    // Unit gains, no bias, epsilon 0. A zero denominator means the answer is undefined("...").

    // answer("mean_square", ...);       // averaged over the coordinates of this one row
    // answer("root_mean_square", ...);  // the RMSNorm denominator
    // answer("rms_norm", ...);
    // answer("shifted_rms_norm", ...);
    // answer("layer_norm", ...);        // LayerNorm looks at deviations from the row's mean
    // answer("shifted_layer_norm", ...);
}
