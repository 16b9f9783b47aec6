// Exercise (companion): how many sequences' KV caches fit in a memory budget.
// `./blockcheck show kv_cache_budget` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] long layers = input_integer("layers");
    [[maybe_unused]] long query_heads = input_integer("query_heads");
    [[maybe_unused]] long kv_heads = input_integer("kv_heads");
    [[maybe_unused]] long head_dim = input_integer("head_dim");
    [[maybe_unused]] long sequence = input_integer("sequence");
    [[maybe_unused]] long bytes_per_element = input_integer("bytes_per_element");
    [[maybe_unused]] long budget_gib = input_integer("budget_gib");  // 1 GiB = 2^30 bytes

    // answer("mha_bytes_per_sequence", ...);  // integer
    // answer("gqa_bytes_per_sequence", ...);  // integer
    // answer("mha_max_batch", ...);           // integer: whole sequences only
    // answer("gqa_max_batch", ...);           // integer
    // answer("mqa_max_batch", ...);           // integer
}
