// Exercise 25.6-4: example 25.3 with the identity as the down projection.
// `./blockcheck show swiglu_identity_down` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> x = input_vector("x");  // one token row: [C]
    Matrix w_gate = input_matrix("w_gate");     // [C, F]
    Matrix w_up = input_matrix("w_up");         // [C, F]
    // W_down is the identity matrix here; it is not an input.

    // answer("swiglu_ffn", ...);
    // answer("mixes_positions", ...);  // true or false: which rows does each step read?
}
