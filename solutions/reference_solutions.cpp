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

namespace {

// Each *_degrees input x becomes x * times. Degrees read as radians: times = 180 / pi, so that the
// reference's own conversion hands the block x radians, as a program calling sin(x) on degrees
// does; pi typed short: times = short / pi, so the block gets x * short / 180.
Values degrees_scaled(Values inputs, const Real& times, bool& any) {
    for (auto& [name, value] : inputs) {
        if (!name.ends_with("_degrees")) continue;
        if (auto* x = std::get_if<Real>(&value)) *x *= times, any = true;
        if (auto* v = std::get_if<Vector<Real>>(&value))
            for (Real& x : *v) x *= times, any = true;
    }
    return inputs;
}

// A slip in the conversion to radians leaves the answers given in degrees as they were (a
// program computes those from its degree inputs directly): they keep the right values.
Values degree_answers_kept(Values slipped, const Values& right) {
    for (auto& [name, value] : slipped)
        if (name.find("degrees") != std::string::npos && right.count(name)) value = right.at(name);
    return slipped;
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
    const Values in_radians = degrees_scaled(inputs, degrees(Real(1)), any);
    if (any) try {
            answers.mistakes.emplace("degrees_as_radians", degree_answers_kept(reference(Inputs(in_radians)), answers.expected));
        } catch (const std::exception&) {
        }
    // pi typed short in the conversion to radians: degrees x taken as x * short / pi
    for (const char* short_pi : {"3.1", "3.14", "3.142", "3.1415", "3.1416", "3.14159"}) {
        if (!any) break;
        try {
            answers.mistakes.emplace(std::string("pi_truncated/") + short_pi,
                                     degree_answers_kept(reference(Inputs(degrees_scaled(inputs, Real(short_pi) / radians(Real(180)), any))),
                                                         answers.expected));
        } catch (const std::exception&) {
        }
    }
    return answers;
}

}  // namespace blockcheck
