// Solved: the parameters of one LLaMA block, as a student would write it.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long long c = input_integer("hidden_size"), heads = input_integer("query_heads");
    long long kv = input_integer("kv_heads"), d = input_integer("head_dim"), m = input_integer("multiple_of");
    long long f = (2 * 4 * c / 3 + m - 1) / m * m;
    long long attention = c * heads * d + 2 * c * kv * d + heads * d * c;
    long long ffn = 3 * c * f;
    long long norms = 2 * c;
    long long total = attention + ffn + norms;
    answer("ffn_hidden_size", f);
    answer("attention_parameters", attention);
    answer("ffn_parameters", ffn);
    answer("norm_parameters", norms);
    answer("block_parameters", total);
    answer("ffn_share", double(ffn) / double(total));
}
