// `blockcheck case new`: a block case (docs/block-case.md) with pseudo-random weights and input
// rows, its configuration from a Hugging Face config.json, from options, or both (options win).
#pragma once

#include "base/text.hpp"
#include "checker/block/block_case.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace blockcheck {

struct NewCaseOptions {
    std::optional<std::string> hf_config;  // a config.json read by read_hf_config
    // Each overrides the config.json's (or the default below when there is none).
    std::optional<std::size_t> hidden_size, query_heads, kv_heads, head_dim, ffn_hidden_size, max_position_embeddings;
    std::optional<std::string> rms_norm_eps, rope_theta;  // decimals, read exactly
    std::optional<std::string> rope_scaling;  // JSON as Hugging Face writes it, or "none"
    std::optional<std::string> rope_layout;   // "interleaved" (default) or "half"
    std::size_t rows = 4;                     // input rows
    long start_position = 0;
    std::string input_rms = "1";              // each input row's root mean square
    unsigned long long seed = 1;
    bool force = false;                       // overwrite files that exist
};

// Defaults without a config.json: hidden_size 16, 4 query heads, as many KV heads, head_dim
// hidden_size / query_heads, ffn_hidden_size 3 hidden_size rounded up to 8, rms_norm_eps 1e-5,
// rope_theta 10000, no scaling.
//
// Weights: q, k, v, gate, up uniform in +-sqrt(3 / in) (o and down likewise, of their inputs), so
// every projection keeps its input's scale; norm gains 1 +- 0.25; input rows uniform, then scaled
// to root mean square input_rms. Each value is written as an 8-digit decimal, read exactly. The
// same options and seed give the same file on every machine (std::mt19937_64).
//
struct NewCase {
    std::vector<std::filesystem::path> files;  // written
    std::vector<Text> notes;                   // the config.json reader's: defaults taken, translations made
};

// `case new --family F DIR`: a small checkpoint folder of a model family as Hugging Face writes
// it (config.json with the family's own fields, model.safetensors with its tensor names, F32), and
// DIR/hidden.npy (float64 [rows, C]): two layers, the first windowed (local) and the second not
// where the family has both kinds, a window of 4 below the 8 rows, q/k/v biases, q/k-norm gains,
// Gemma's gains stored as g, Phi-3's fused weights with GQA and a partial rotary factor 0.5, a soft
// cap of 1 (so that every mechanism and each of its porting mistakes shows on 8 rows). Weights as
// write_new_case's, rounded to float.
struct FamilyFolder {
    std::string family;  // model_type: llama, mistral, qwen2, qwen3, gemma2, gemma3 (text_config), gemma3_text, phi3, olmo2
    std::size_t rows = 8;
    unsigned long long seed = 1;
    bool force = false;
};
inline constexpr const char* family_names[] = {"llama", "mistral", "qwen2", "qwen3", "gemma2", "gemma3", "gemma3_text", "phi3", "olmo2"};
std::vector<std::filesystem::path> write_family_folder(const std::filesystem::path& dir, const FamilyFolder& options);

// Writes OUT.json; a case of more than 2^20 numbers keeps its weights and input in
// OUT.safetensors beside it (the block's names, [in, out], float64). A configuration the block
// case reader refuses is an InputFileError naming the field, and nothing is written.
NewCase write_new_case(const std::filesystem::path& out, const NewCaseOptions& options);

}  // namespace blockcheck
