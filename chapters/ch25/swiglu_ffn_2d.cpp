// Worked example 25.3: a two-dimensional SwiGLU FFN, one step per answer.
// `./blockcheck show swiglu_ffn_2d` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> x = input_vector("x");  // one token row: [C]
    Matrix w_gate = input_matrix("w_gate");     // [C, F]: row r = input coordinate r
    Matrix w_up = input_matrix("w_up");         // [C, F]
    Matrix w_down = input_matrix("w_down");     // [F, C]

    // The row multiplies from the left: y = x W.

    // answer("gate", ...);           // the gate branch
    // answer("up", ...);             // the other branch
    // answer("silu", ...);           // SiLU(a) = a / (1 + e^-a), coordinate by coordinate
    // answer("swiglu_hidden", ...);  // the two branches paired coordinate by coordinate
    // answer("swiglu_ffn", ...);     // back to width C
}
