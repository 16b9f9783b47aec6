#include "exercise.hpp"
#include "ch25/references.hpp"
#include "gqa_long_context/references.hpp"

namespace blockcheck {

// Exercises added with `blockcheck new`: it writes solutions/<chapter>/<id>.cpp and inserts the
// declaration and the registry entry at the two marked lines.
// blockcheck new: declarations above this line

const std::map<std::string, ReferenceSolution>& reference_solutions() {
    static const std::map<std::string, ReferenceSolution> all = {
        // chapter 25: worked examples
        {"rope_quarter_turn_table", rope_quarter_turn_table},
        {"rms_norm_vs_layer_norm", rms_norm_vs_layer_norm},
        {"swiglu_ffn_2d", swiglu_ffn_2d},
        {"ffn_parameter_counts", ffn_parameter_counts},
        // chapter 25: exercises 25.6
        {"rope_later_positions", rope_later_positions},
        {"rms_norm_zero_row", rms_norm_zero_row},
        {"rms_norm_shift", rms_norm_shift},
        {"swiglu_identity_down", swiglu_identity_down},
        {"swiglu_matched_budget", swiglu_matched_budget},
        {"max_sequence_slots", max_sequence_slots},
        // companion: GQA, the KV cache, long-context RoPE and the LLaMA block
        {"rotating_stamp", rotating_stamp},
        {"stamp_relative_position", stamp_relative_position},
        {"position_interpolation", position_interpolation},
        {"interpolation_every_frequency", interpolation_every_frequency},
        {"ntk_aware_scaling", ntk_aware_scaling},
        {"ntk_vs_linear", ntk_vs_linear},
        {"gqa_groups", gqa_groups},
        {"kv_cache_sizes", kv_cache_sizes},
        {"kv_cache_budget", kv_cache_budget},
        {"llama_ffn_width", llama_ffn_width},
        {"llama_block_parameters", llama_block_parameters},
        {"llama_block_tiny", llama_block_tiny},
        {"block_position_shift", block_position_shift},
        {"rope_attention_demo", rope_attention_demo},
        {"rope_write_back_layout", rope_write_back_layout},
        {"misconceptions_by_numbers", misconceptions_by_numbers},
        {"interview_questions", interview_questions},
        // blockcheck new: entries above this line
    };
    return all;
}

}  // namespace blockcheck
