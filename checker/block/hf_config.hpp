// Hugging Face config.json files: the one reader of them (`rope`, `case new`, `case export`'s
// round trip, the real-layer `--model`) and the writer `case export` uses.
//
// Fields read, with LlamaConfig's default when absent (docs/block-case.md lists them too):
//   hidden_size, intermediate_size, num_attention_heads, num_key_value_heads (num_attention_heads),
//   head_dim (hidden_size / num_attention_heads), rms_norm_eps (1e-6), rope_theta (10000),
//   rope_scaling (transformers 4) or rope_parameters (transformers 5), partial_rotary_factor (1),
//   max_position_embeddings (2048), hidden_act ("silu"), attention_bias (false), mlp_bias (false),
//   model_type ("llama"), num_hidden_layers, vocab_size, tie_word_embeddings (false),
//   sliding_window (null), torch_dtype or dtype, quantization_config.
// Refused by name, because the block would differ: attention_bias or mlp_bias true, a hidden_act
// other than silu (or its alias swish), partial_rotary_factor below 1, a model_type other than
// llama or mistral, quantization_config. Every other field (token ids, initializer_range, ...)
// does not change the block and is ignored.
#pragma once

#include "checker/block/rope_config.hpp"

namespace blockcheck {

// The block one layer of a LLaMA-architecture model computes, and what else the config says.
template <class T>
struct HfConfig {
    BlockConfig<T> block;                        // rope_layout half: Hugging Face's rotate_half pairs
    nlohmann::ordered_json case_config;          // the same as a block case's "config", numbers as written
    std::size_t max_position_embeddings = 2048;
    std::size_t num_hidden_layers = 0;           // 0 when not given
    std::size_t vocab_size = 0;                  // 0 when not given
    bool tie_word_embeddings = false;
    std::size_t sliding_window = 0;              // 0: every key is attended to
    std::string torch_dtype;                     // "" when not given
    std::vector<Text> notes;                     // defaults taken, translations made
};

// The rotary settings only, of any model's config (Phi-3's partial rotary factor included); a
// bad or missing field is an InputFileError naming `source` and the field.
template <class T>
RopeConfig<T> read_hf_rope(const nlohmann::ordered_json& json, const std::string& source);

template <class T>
RopeConfig<T> read_hf_rope_file(const std::filesystem::path& file) {
    return read_hf_rope<T>(read_json_exact(file), file.string());
}

// The whole block; a field that would change it and is not supported is refused by name
// ("config.json: config.attention_bias: true: the block has no bias terms").
template <class T>
HfConfig<T> read_hf_config(const nlohmann::ordered_json& json, const std::string& source);

template <class T>
HfConfig<T> read_hf_config_file(const std::filesystem::path& file) {
    return read_hf_config<T>(read_json_exact(file), file.string());
}

// A LlamaConfig (one layer) for a block case's configuration `case_config` (a case's "config",
// read as `c`); read_hf_config reads it back to the same block in half layout. A static `ntk`
// scaling, which Hugging Face lacks, becomes its grown rope_theta. `positions` is the case's
// last position + 1, the least max_position_embeddings when the case gives none.
nlohmann::ordered_json hf_config_json(const BlockConfig<double>& c, const nlohmann::ordered_json& case_config,
                                      long positions);

}  // namespace blockcheck
