// Worked example (companion): the rotating stamp, 30 degrees a position.
// `./blockcheck show rotating_stamp` prints the full task; `./blockcheck hint rotating_stamp` helps.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] double angle_degrees = input_number("angle_degrees");  // the stamp's turn per position
    std::vector<double> positions = input_vector("positions");             // where to read the pointer
    std::vector<double> query = input_vector("query");                     // a 2-D arrow of length one
    std::vector<double> key = input_vector("key");
    [[maybe_unused]] long query_position = input_integer("query_position");
    [[maybe_unused]] long key_position = input_integer("key_position");

    // A token at position p carries the angle p * angle_degrees. Stamping an arrow turns it
    // by that angle (cos and sin want radians).

    // answer("stamp_angle_degrees", ...);     // vector: the pointer's angle at each position, in degrees (do not reduce modulo 360)
    // answer("relative_angle_degrees", ...);  // number: key's angle minus query's angle (do not reduce modulo 360)
    // answer("rope_query", ...);              // vector: the stamped query
    // answer("rope_key", ...);                // vector: the stamped key
    // answer("dot", ...);                     // number: their plain dot product
}
