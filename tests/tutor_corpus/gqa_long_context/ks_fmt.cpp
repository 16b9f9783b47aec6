// kv_cache_sizes: right, in double with its own printf formatting
#include "blockcheck.hpp"
#include <cstdio>
using namespace bc;

int main() {
    double layers = input_number("layers"), qh = input_number("query_heads"), kvh = input_number("kv_heads");
    double d = input_number("head_dim"), seq = input_number("sequence"), batch = input_number("batch");
    double bpe = input_number("bytes_per_element");
    double per_head = 2 * layers * d * seq * batch * bpe;
    double mha = per_head * qh, gqa = per_head * kvh, mqa = per_head;
    std::printf("mha_kv_cache_bytes = %.0f\n", mha);
    std::printf("gqa_kv_cache_bytes = %.0f\n", gqa);
    std::printf("mqa_kv_cache_bytes = %.0f\n", mqa);
    std::printf("mha_to_gqa_ratio = %.8f\n", mha / gqa);
    std::printf("gqa_to_mqa_ratio = %.8f\n", gqa / mqa);
    std::printf("gqa_kv_cache_gib = %.8f\n", gqa / std::pow(2.0, 30));
}
