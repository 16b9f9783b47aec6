// Exercise (companion): the tiny LLaMA block with its rows moved to later positions.
// `./blockcheck show block_position_shift` prints the full task and the choices.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] long query_heads = input_integer("query_heads");
    [[maybe_unused]] long kv_heads = input_integer("kv_heads");
    [[maybe_unused]] long head_dim = input_integer("head_dim");
    [[maybe_unused]] double rms_norm_eps = input_number("rms_norm_eps");
    [[maybe_unused]] double rope_theta = input_number("rope_theta");
    Matrix x = input_matrix("x");  // [T, C]
    std::vector<double> attn_norm = input_vector("attn_norm");
    Matrix w_q = input_matrix("q");
    Matrix w_k = input_matrix("k");
    Matrix w_v = input_matrix("v");
    Matrix w_o = input_matrix("o");
    std::vector<double> ffn_norm = input_vector("ffn_norm");
    Matrix w_gate = input_matrix("w_gate");
    Matrix w_up = input_matrix("w_up");
    Matrix w_down = input_matrix("w_down");
    [[maybe_unused]] long shift = input_integer("shift");  // the first row's new position

    // Reuse your block from llama_block_tiny, with the first position as a parameter.

    // answer("shifted_output", ...);            // matrix [T, C]
    // answer("output_changes", ...);            // true or false
    // answer_choice("sees_position", "?");      // A, B, C or D
    // answer_choice("norm_placement", "?");     // A, B or C
}
