// kv_cache_sizes: the MHA-to-GQA ratio written GQA over MHA
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long long layers = input_integer("layers"), heads = input_integer("query_heads");
    long long kv = input_integer("kv_heads"), d = input_integer("head_dim");
    long long seq = input_integer("sequence"), batch = input_integer("batch");
    long long bytes = input_integer("bytes_per_element");
    auto cache = [&](long long n) { return 2 * layers * n * d * seq * batch * bytes; };
    long long mha = cache(heads), gqa = cache(kv), mqa = cache(1);
    answer("mha_kv_cache_bytes", mha);
    answer("gqa_kv_cache_bytes", gqa);
    answer("mqa_kv_cache_bytes", mqa);
    answer("mha_to_gqa_ratio", double(gqa) / double(mha));
    answer("gqa_to_mqa_ratio", double(gqa) / double(mqa));
    answer("gqa_kv_cache_gib", double(gqa) / double(1LL << 30));
}
