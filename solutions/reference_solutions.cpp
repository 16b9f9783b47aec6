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

const std::vector<std::string>& mechanism_mistakes() {
    static const std::vector<std::string> all = {
        // RoPE
        "clockwise_rotation", "position_off_by_one", "pairing_half_vs_interleaved", "angle_not_scaled", "ntk_exponent",
        // RMSNorm
        "eps_omitted", "eps_outside_sqrt", "mean_subtracted", "gain_omitted", "sum_not_mean",
        // SwiGLU
        "sigmoid_for_silu", "relu_for_silu", "gate_up_swapped", "transposed_weights",
        // attention
        "no_attention_scale", "not_causal", "wrong_kv_head",
        // parameter counts
        "bias_counted", "matrix_missing", "relu_width_for_swiglu",
    };
    return all;
}

namespace {

// Inputs in degrees read as radians: each *_degrees input x becomes x * 180 / pi, so that the
// reference's own conversion hands the block x radians, as a program calling sin(x) on degrees does.
Values degrees_read_as_radians(Values inputs, bool& any) {
    const Real to_degrees = degrees(Real(1));
    for (auto& [name, value] : inputs) {
        if (!name.ends_with("_degrees")) continue;
        if (auto* x = std::get_if<Real>(&value)) *x *= to_degrees, any = true;
        if (auto* v = std::get_if<Vector<Real>>(&value))
            for (Real& x : *v) x *= to_degrees, any = true;
    }
    return inputs;
}

}  // namespace

ReferenceAnswers reference_answers_with_mistakes(const std::string& id, const Values& inputs,
                                                 const std::vector<std::string>& mistakes) {
    const ReferenceSolution reference = reference_solutions().at(id);
    ReferenceAnswers answers{reference(Inputs(inputs)), {}};
    for (const std::string& mistake : mistakes) {
        try {
            const Inputs slipped(inputs, mistake);
            Values values = reference(slipped);
            if (slipped.mistake_consulted()) answers.mistakes.emplace(mistake, std::move(values));
        } catch (const std::exception&) {
            // the mistake cannot be made on these inputs (shapes that do not fit, a zero divisor)
        }
    }
    bool any = false;
    const Values in_radians = degrees_read_as_radians(inputs, any);
    if (any) try {
            answers.mistakes.emplace("degrees_as_radians", reference(Inputs(in_radians)));
        } catch (const std::exception&) {
        }
    return answers;
}

}  // namespace blockcheck
