// kv_cache_sizes: two slips: no factor 2 and GiB as 1e9
#include "blockcheck.hpp"
using namespace bc;

long long cache_bytes(long long layers, long long kv_heads, long long head_dim, long long seq, long long batch, long long bytes) {
    return layers * kv_heads * head_dim * seq * batch * bytes;
}

int main() {
    long long layers = input_integer("layers");
    long long query_heads = input_integer("query_heads");
    long long kv_heads = input_integer("kv_heads");
    long long head_dim = input_integer("head_dim");
    long long seq = input_integer("sequence");
    long long batch = input_integer("batch");
    long long bytes = input_integer("bytes_per_element");

    long long mha = cache_bytes(layers, query_heads, head_dim, seq, batch, bytes);
    long long gqa = cache_bytes(layers, kv_heads, head_dim, seq, batch, bytes);
    long long mqa = cache_bytes(layers, 1, head_dim, seq, batch, bytes);
    answer("mha_kv_cache_bytes", mha);
    answer("gqa_kv_cache_bytes", gqa);
    answer("mqa_kv_cache_bytes", mqa);
    answer("mha_to_gqa_ratio", (double)mha / gqa);
    answer("gqa_to_mqa_ratio", (double)gqa / mqa);
    double gib = 1e9;
    answer("gqa_kv_cache_gib", gqa / gib);
}
