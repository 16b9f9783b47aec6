// llama_block_parameters: rounds the width down to the multiple
#include "blockcheck.hpp"
using namespace bc;

long ffn_width(long C, long multiple_of) {
    long f = 2 * (4 * C) / 3;
    f = f / multiple_of * multiple_of;
    return f;
}

int main() {
    long C = input_integer("hidden_size");
    long qh = input_integer("query_heads");
    long kvh = input_integer("kv_heads");
    long d = input_integer("head_dim");
    long multiple_of = input_integer("multiple_of");

    long F = ffn_width(C, multiple_of);
    long wq = C * qh * d, wk = C * kvh * d, wv = C * kvh * d, wo = qh * d * C;
    long attention = wq + wk + wv + wo;
    long ffn = 3 * C * F;
    long norms = 2 * C;
    long block = attention + ffn + norms;
    answer("ffn_hidden_size", F);
    answer("attention_parameters", attention);
    answer("ffn_parameters", ffn);
    answer("norm_parameters", norms);
    answer("block_parameters", block);
    answer("ffn_share", double(ffn) / double(block));
}
