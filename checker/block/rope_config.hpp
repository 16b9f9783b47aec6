// The rotary settings of a Hugging Face config.json: rope_theta, the head width (head_dim, or
// hidden_size / num_attention_heads), partial_rotary_factor, max_position_embeddings and the
// scaling, written as transformers 4 writes it (rope_scaling, "type" or "rope_type", null for
// none) or as transformers 5 does (rope_parameters, with rope_theta inside). Read by
// checker/block/hf_config.hpp's read_hf_rope (the scaling object by the block case loader's
// read_rope_scaling).
#pragma once

#include "base/text.hpp"
#include "checker/block/block_case.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace blockcheck {

template <class T>
struct RopeConfig {
    T theta = T(10000);
    std::size_t head_dim = 0;                 // the attention head's width
    std::size_t rotary_dim = 0;               // head_dim * partial_rotary_factor: the coordinates RoPE turns
    std::size_t max_position_embeddings = 0;  // 0 when the config gives none
    RopeScaling<T> scaling;
    std::vector<Text> notes;                  // what the reader assumed or translated, for the user

    // L0: the context the model was trained on (rope_scaling's original_max_position_embeddings,
    // else max_position_embeddings); 0 when neither is known.
    std::size_t original_context() const;
    // The longest context the configuration is for: max_position_embeddings, or factor * L0 when
    // that is longer (dynamic NTK keeps L0 in max_position_embeddings).
    std::size_t longest_context() const;
    // 0, L0 - 1, L0 and the longest context - 1 (those that exist), increasing.
    std::vector<long> default_positions() const;
    // The frequency plan for a forward whose largest position is sequence_length - 1 (Hugging
    // Face's rotate_half pairing).
    Rope<T> rope(std::size_t sequence_length) const {
        return make_rope(theta, rotary_dim, scaling, RopeLayout::half, sequence_length);
    }
};

}  // namespace blockcheck
