// Exercise (companion): move both stamps along by the same shift; only the gap counts.
// `./blockcheck show stamp_relative_position` prints the full task and the choices.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> query = input_vector("query");  // a 2-D arrow
    std::vector<double> key = input_vector("key");
    [[maybe_unused]] double angle_degrees = input_number("angle_degrees");
    [[maybe_unused]] long query_position = input_integer("query_position");
    [[maybe_unused]] long key_position = input_integer("key_position");
    [[maybe_unused]] long shift = input_integer("shift");  // added to both positions

    // Write one function that stamps an arrow at a position, and use it three times.

    // answer("dot", ...);                      // number: stamped query . stamped key
    // answer("shifted_dot", ...);              // number: the same, both positions + shift
    // answer("relative_dot", ...);             // number: query unturned . key turned by the gap
    // answer_choice("dot_depends_on", "?");    // A, B or C
}
