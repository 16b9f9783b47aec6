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
// model_type names the family (llama, mistral, qwen2, qwen3, gemma2, gemma3_text or gemma3 with a
// text_config, phi3, olmo2); each family's own fields and defaults (its transformers config class's)
// are read by read_family_fields (detail/hf_family.cpp; the table is in docs/checkpoints.md) into
// the switches of the one block. Refused by name, because the block would differ: an unknown
// model_type, a bias or activation the family's layer does not have, partial_rotary_factor below 1
// outside phi3, quantization_config, and each family field with a value the block does not compute.
// Every other field (token ids, initializer_range, ...) does not change the block and is ignored.
#pragma once

#include "checker/block/rope_config.hpp"

#include <functional>

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
    // The family (model_type) and how its layers differ from LLaMA's:
    std::string model_type = "llama";
    bool fused_gate_up = false;                  // Phi-3's gate_up_proj: gate rows, then up rows
    std::vector<std::string> layer_prefixes = {"model.layers."};  // tried in order (Gemma 3's nested checkpoints)
    std::vector<Text> mechanisms;                // every layer's, as forward and compare say them
    // Models with windowed (local) layers: which layers are (null: none), and their window and RoPE.
    std::function<bool(std::size_t)> windowed_layer;
    LayerKind<T> local_kind;
    bool two_kinds = false;                      // some layers windowed, some not (local_global_shifted)
};

// The block of layer `layer`: `hf.block` with the layer's window and RoPE where the model has
// windowed layers, the other kind kept for the mistake local_global_shifted.
template <class T>
BlockConfig<T> layer_block(const HfConfig<T>& hf, std::size_t layer);

// What layer `layer` computes beyond a LLaMA layer, one line a mechanism (empty for LLaMA's).
template <class T>
std::vector<Text> layer_mechanisms(const HfConfig<T>& hf, std::size_t layer);

// The family's own fields of config.json (after the LLaMA ones are read into `hf`): its switches,
// windows and tensor names. `json` is the text config (Gemma 3's text_config).
template <class T>
void read_family_fields(const nlohmann::ordered_json& json, const std::string& where, HfConfig<T>& hf);

// config.json with the family's defaults for the fields it lacks (each default taken is a note), the
// nested text_config of a multimodal gemma3 taken out; model_type refused unless a known family.
nlohmann::ordered_json with_family_defaults(const nlohmann::ordered_json& json, const std::string& where,
                                            std::vector<Text>& notes);

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
