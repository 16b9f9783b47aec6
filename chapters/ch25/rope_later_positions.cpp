// Exercise 25.6-1: the RoPE rotation example with the query and the key at later positions.
// `./blockcheck show rope_later_positions` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> query = input_vector("query");
    std::vector<double> key = input_vector("key");
    [[maybe_unused]] double angle_degrees = input_number("angle_degrees");
    [[maybe_unused]] long query_position = input_integer("query_position");
    [[maybe_unused]] long key_position = input_integer("key_position");

    // answer("rope_query", ...);              // turned by the query's own position
    // answer("rope_key", ...);                // turned by the key's own position
    // answer("dot", ...);                     // unscaled
    // answer("relative_angle_degrees", ...);  // how much farther the key turned (an angle: modulo 360)
    // answer("causal_can_use_key", ...);      // true or false: think about the mask, not the angles
}
