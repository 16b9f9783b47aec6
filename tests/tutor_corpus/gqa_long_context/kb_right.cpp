// kv_cache_budget: right
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long long layers = input_integer("layers");
    long long query_heads = input_integer("query_heads");
    long long kv_heads = input_integer("kv_heads");
    long long head_dim = input_integer("head_dim");
    long long sequence = input_integer("sequence");
    long long bpe = input_integer("bytes_per_element");
    long long budget_gib = input_integer("budget_gib");

    long long budget = budget_gib * (1LL << 30);
    long long per_kv_head = 2 * layers * head_dim * sequence * bpe;
    long long mha = per_kv_head * query_heads;
    long long gqa = per_kv_head * kv_heads;
    long long mqa = per_kv_head * 1;
    answer("mha_bytes_per_sequence", mha);
    answer("gqa_bytes_per_sequence", gqa);
    answer("mha_max_batch", budget / mha);
    answer("gqa_max_batch", budget / gqa);
    answer("mqa_max_batch", budget / mqa);
}
