// Exercise (companion): rotated pairs written back in place instead of as two halves.
// `./blockcheck show rope_write_back_layout` prints the full task and the choices.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] long heads = input_integer("heads");
    [[maybe_unused]] long head_dim = input_integer("head_dim");
    [[maybe_unused]] double base = input_number("base");
    Matrix q = input_matrix("q");  // [8, heads * head_dim]
    Matrix k = input_matrix("k");
    Matrix v = input_matrix("v");

    // Compute the demo's layout and the in-place layout from the same rotation.

    // answer("q_interleaved", ...);                 // matrix
    // answer("attention_output_interleaved", ...);  // matrix
    // answer("q_changes", ...);                     // true or false
    // answer("output_changes", ...);                // true or false
    // answer_choice("why", "?");                    // A, B or C
}
