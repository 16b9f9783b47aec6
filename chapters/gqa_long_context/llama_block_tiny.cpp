// Worked example (companion): one LLaMA block, step by step, on a tiny configuration.
// `./blockcheck show llama_block_tiny` prints the full task, every formula included.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] long query_heads = input_integer("query_heads");
    [[maybe_unused]] long kv_heads = input_integer("kv_heads");
    [[maybe_unused]] long head_dim = input_integer("head_dim");
    [[maybe_unused]] double rms_norm_eps = input_number("rms_norm_eps");
    [[maybe_unused]] double rope_theta = input_number("rope_theta");
    Matrix x = input_matrix("x");                                  // [T, C], row t at position t
    std::vector<double> attn_norm = input_vector("attn_norm");     // [C]
    Matrix w_q = input_matrix("q");                                // [C, query_heads * head_dim]
    Matrix w_k = input_matrix("k");                                // [C, kv_heads * head_dim]
    Matrix w_v = input_matrix("v");                                // [C, kv_heads * head_dim]
    Matrix w_o = input_matrix("o");                                // [query_heads * head_dim, C]
    std::vector<double> ffn_norm = input_vector("ffn_norm");       // [C]
    Matrix w_gate = input_matrix("w_gate");                        // [C, F]
    Matrix w_up = input_matrix("w_up");                            // [C, F]
    Matrix w_down = input_matrix("w_down");                        // [F, C]

    // N = RMSNorm(x); Q, K, V = N W; RoPE on Q and K; causal attention; R = x + (heads) W_o;
    // M = RMSNorm(R); output = R + (SiLU(M W_gate) * M W_up) W_down.
    // Small helpers (matmul, rms_norm_rows, softmax) keep main readable.

    // answer("attention_input", ...);  // matrix [T, C]: N
    // answer("residual", ...);         // matrix [T, C]: R
    // answer("ffn_input", ...);        // matrix [T, C]: M
    // answer("output", ...);           // matrix [T, C]
}
