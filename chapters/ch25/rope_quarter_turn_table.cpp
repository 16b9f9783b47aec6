// Worked example — table 25.1: RoPE turns the query and the key, then we compare them.
// `./blockcheck show rope_quarter_turn_table` prints the full task; `./blockcheck hint ...` helps.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> query = input_vector("query");  // a 2-D arrow, already projected
    std::vector<double> key = input_vector("key");
    [[maybe_unused]] double angle_degrees = input_number("angle_degrees");  // turn per position
    std::vector<double> query_positions = input_vector("query_positions");  // one entry per table row
    std::vector<double> key_positions = input_vector("key_positions");

    // For every table row: turn the query by its own position's angle and the key by its own
    // position's angle (positions count from 0), then compare the two turned arrows.

    // answer("rope_query", ...);  // matrix: one turned query per table row
    // answer("rope_key", ...);    // matrix: one turned key per table row
    // answer("dot", ...);         // vector: the plain dot product of each row's pair
}
