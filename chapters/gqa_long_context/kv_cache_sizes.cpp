// Worked example (companion): the KV cache of MHA, GQA and MQA.
// `./blockcheck show kv_cache_sizes` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] long layers = input_integer("layers");
    [[maybe_unused]] long query_heads = input_integer("query_heads");
    [[maybe_unused]] long kv_heads = input_integer("kv_heads");
    [[maybe_unused]] long head_dim = input_integer("head_dim");
    [[maybe_unused]] long sequence = input_integer("sequence");
    [[maybe_unused]] long batch = input_integer("batch");
    [[maybe_unused]] long bytes_per_element = input_integer("bytes_per_element");

    // bytes = 2 (K and V) x layers x K/V heads x head_dim x sequence x batch x bytes_per_element

    // answer("mha_kv_cache_bytes", ...);  // integer (long long)
    // answer("gqa_kv_cache_bytes", ...);  // integer
    // answer("mqa_kv_cache_bytes", ...);  // integer
    // answer("mha_to_gqa_ratio", ...);    // number
    // answer("gqa_to_mqa_ratio", ...);    // number
    // answer("gqa_kv_cache_gib", ...);    // number: bytes / 2^30
}
