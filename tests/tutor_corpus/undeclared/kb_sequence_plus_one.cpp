// kv_cache_budget: each sequence cached for sequence + 1 positions (the next token counted too)
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long long layers = input_integer("layers"), heads = input_integer("query_heads");
    long long kv = input_integer("kv_heads"), d = input_integer("head_dim");
    long long seq = input_integer("sequence") + 1, bytes = input_integer("bytes_per_element");
    long long budget = input_integer("budget_gib") * 1024LL * 1024 * 1024;
    auto per_sequence = [&](long long n) { return 2 * layers * n * d * seq * bytes; };
    answer("mha_bytes_per_sequence", per_sequence(heads));
    answer("gqa_bytes_per_sequence", per_sequence(kv));
    answer("mha_max_batch", budget / per_sequence(heads));
    answer("gqa_max_batch", budget / per_sequence(kv));
    answer("mqa_max_batch", budget / per_sequence(1));
}
