// The block's configuration from a Hugging Face config.json of the LLaMA family. The one place a
// checkpoint folder's config is read (docs/checkpoints.md lists the fields).
#pragma once

#include "checker/block/block_case.hpp"

#include <filesystem>

namespace blockcheck {

// config.json -> the block case's "config" object (docs/block-case.md): hidden_size,
// intermediate_size, num_attention_heads, num_key_value_heads (default: the heads), head_dim
// (default: hidden_size / num_attention_heads), rms_norm_eps, rope_theta (default 10000),
// rope_scaling, max_position_embeddings, with RoPE in Hugging Face's rotate_half pairing. Fields
// that would change the block and are not supported (attention_bias, mlp_bias, a hidden_act other
// than silu, partial_rotary_factor below 1, ...) are an InputFileError naming the field; `source`
// names the file in every message.
nlohmann::ordered_json block_config_json_of_hf(const nlohmann::ordered_json& config, const std::string& source);

// num_hidden_layers, when the config gives it (0 otherwise).
std::size_t hf_layer_count(const nlohmann::ordered_json& config);

// The block's configuration at T's precision from a config.json file.
template <class T>
BlockConfig<T> read_hf_block_config(const std::filesystem::path& file) {
    return read_block_config<T>(block_config_json_of_hf(read_json_exact(file), file.string()), file.string());
}

}  // namespace blockcheck
