// Exercise (companion): two misconceptions, SiLU as a pass ratio and RMSNorm's zero mean.
// `./blockcheck show misconceptions_by_numbers` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> gate_values = input_vector("gate_values");
    std::vector<double> row = input_vector("row");

    // answer("sigmoid", ...);                 // vector
    // answer("silu", ...);                    // vector: a * sigmoid(a)
    // answer("silu_is_pass_ratio", ...);      // true or false: do these silu values all lie in 0..1?
    // answer("rms_norm", ...);                // vector: unit gains, epsilon 0
    // answer("rms_norm_mean", ...);           // number
    // answer("rms_norm_has_zero_mean", ...);  // true or false: is this row's rms_norm mean zero?
}
