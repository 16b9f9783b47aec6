#include "exercise.hpp"
#include "ch25/references.hpp"

namespace blockcheck {

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
    };
    return all;
}

}  // namespace blockcheck
