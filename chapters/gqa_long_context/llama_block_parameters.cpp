// Exercise (companion): where the parameters of one LLaMA block are.
// `./blockcheck show llama_block_parameters` prints the full task.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] long hidden_size = input_integer("hidden_size");  // C
    [[maybe_unused]] long query_heads = input_integer("query_heads");
    [[maybe_unused]] long kv_heads = input_integer("kv_heads");
    [[maybe_unused]] long head_dim = input_integer("head_dim");
    [[maybe_unused]] long multiple_of = input_integer("multiple_of");

    // answer("ffn_hidden_size", ...);       // integer: LLaMA's rule
    // answer("attention_parameters", ...);  // integer: W_q, W_k, W_v, W_o
    // answer("ffn_parameters", ...);        // integer: gate, up, down
    // answer("norm_parameters", ...);       // integer: two gain vectors
    // answer("block_parameters", ...);      // integer: all of it
    // answer("ffn_share", ...);             // number
}
