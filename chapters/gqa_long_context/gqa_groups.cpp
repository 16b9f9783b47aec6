// Worked example (companion): GQA puts 48 query heads in 8 groups sharing K/V heads.
// `./blockcheck show gqa_groups` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] long query_heads = input_integer("query_heads");
    [[maybe_unused]] long kv_heads = input_integer("kv_heads");  // divides query_heads
    std::vector<double> look_up = input_vector("query_heads_to_look_up");  // query head indices, from 0
    [[maybe_unused]] long query_head = input_integer("query_head");

    // Consecutive query heads form a group; a group reads one K/V head.

    // answer("heads_per_group", ...);      // integer
    // answer("kv_head_of_query", ...);     // vector: one K/V head per entry of look_up
    // answer("query_heads_sharing", ...);  // vector: the query heads in query_head's group
}
