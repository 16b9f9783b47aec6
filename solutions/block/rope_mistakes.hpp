// The RoPE-scaling porting mistakes by catalogue id (data/mistakes.json, made_by "block"): each
// sets one switch of the block's one RoPE (RopeScalingMistake in rope.hpp).
#pragma once

#include "block.hpp"

#include <array>
#include <string_view>
#include <utility>

namespace blockcheck {

// Every RoPE-scaling mistake's id, in the catalogue's order.
inline constexpr std::array<std::pair<std::string_view, RopeScalingMistake>, 7> rope_mistake_ids{{
    {"rope_scaling_not_applied", RopeScalingMistake::not_applied},
    {"yarn_attention_factor_missing", RopeScalingMistake::attention_factor_missing},
    {"yarn_attention_factor_twice", RopeScalingMistake::attention_factor_twice},
    {"yarn_attention_factor_on_scores", RopeScalingMistake::attention_factor_on_scores},
    {"llama3_band_skipped", RopeScalingMistake::llama3_band_skipped},
    {"dynamic_ntk_at_longest_context", RopeScalingMistake::dynamic_at_longest_context},
    {"dynamic_ntk_unclamped", RopeScalingMistake::dynamic_unclamped},
}};

// Makes the mistake `id` in `config`'s RoPE; false for an id that is not a RoPE-scaling mistake.
template <class T>
bool make_rope_mistake(BlockConfig<T>& config, std::string_view id) {
    for (const auto& [name, mistake] : rope_mistake_ids)
        if (name == id) {
            config.rope_scaling.mistake = mistake;
            return true;
        }
    return false;
}

// The rope_type names a config.json's rope_scaling may be taken as (rope_type_taken_as/{rope_type}).
// "default", the scaling not applied at all, is rope_scaling_not_applied; "longrope" reads per-pair
// lists only a LongRoPE config has, so a scaling is never taken as it.
inline constexpr std::array<std::pair<std::string_view, RopeScalingType>, 4> rope_type_names{{
    {"linear", RopeScalingType::linear},
    {"dynamic", RopeScalingType::dynamic},
    {"yarn", RopeScalingType::yarn},
    {"llama3", RopeScalingType::llama3},
}};

// The scaling computed as rope_type `name` with the configuration's own fields (factor, original
// context, ...; the other type's defaults where it has none): llama3 applied as linear, yarn as
// dynamic, ... False where it cannot be made: no scaling, the same type, or a type that needs the
// original context when the configuration has none (linear's).
template <class T>
bool make_rope_type_mistake(RopeScaling<T>& scaling, std::string_view name) {
    for (const auto& [type_name, type] : rope_type_names) {
        if (type_name != name) continue;
        const bool needs_context = type != RopeScalingType::linear;
        if (scaling.type == RopeScalingType::none || scaling.type == type ||
            (needs_context && scaling.original_context == 0))
            return false;
        scaling.type = type;
        return true;
    }
    return false;
}

// The slips of the turn itself on any plan, by catalogue id: clockwise_rotation (the sine's sign
// flipped), position_off_by_one (positions counted from 1); false for another id. Every reference
// that turns vectors takes its plan through this switch (Inputs::mistake_on).
template <class T>
bool make_plan_mistake(Rope<T>& rope, std::string_view id) {
    if (id == "clockwise_rotation") rope.clockwise = true;
    else if (id == "position_off_by_one") rope.position_offset = T(1);
    else return false;
    return true;
}

}  // namespace blockcheck
