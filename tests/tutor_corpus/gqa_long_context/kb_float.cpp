// kv_cache_budget: right, all in double with floor
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

int main() {
    double layers = input_number("layers"), qh = input_number("query_heads"), kv = input_number("kv_heads");
    double d = input_number("head_dim"), seq = input_number("sequence"), bpe = input_number("bytes_per_element");
    double budget = input_number("budget_gib") * 1073741824.0;
    double mha = 2 * layers * qh * d * seq * bpe;
    double gqa = 2 * layers * kv * d * seq * bpe;
    double mqa = 2 * layers * 1 * d * seq * bpe;
    answer("mha_bytes_per_sequence", (long)mha);
    answer("gqa_bytes_per_sequence", (long)gqa);
    answer("mha_max_batch", (long)std::floor(budget / mha));
    answer("gqa_max_batch", (long)std::floor(budget / gqa));
    answer("mqa_max_batch", (long)std::floor(budget / mqa));
}
