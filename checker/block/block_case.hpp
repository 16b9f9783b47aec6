// Block case files (docs/block-case.md): a configuration, one block's weights, input rows and
// optionally the keys and values already in the cache.
#pragma once

#include "checker/common/json_exact.hpp"
#include "solutions/block/block.hpp"
#include "solutions/block/real.hpp"

namespace blockcheck {

// Sane limits, checked before anything is allocated (a 300-byte file must not ask for 16 GB).
inline constexpr std::size_t max_case_dimension = 1 << 16;  // hidden_size, heads, head_dim, ffn_hidden_size
inline constexpr std::size_t max_case_width = 1 << 20;      // query_heads * head_dim, kv_heads * head_dim
inline constexpr std::size_t max_case_rows = 1 << 16;       // input rows, cached rows
inline constexpr long max_case_position = 1L << 40;         // start_position, cached positions, context lengths

template <class T>
struct BlockCase {
    BlockConfig<T> config;
    BlockWeights<T> weights;
    long start_position = 0;
    Matrix<T> input;     // [T, hidden_size], at positions start_position .. start_position + T - 1
    KvCache<T> cached;   // earlier rotated keys and values, positions increasing and < start_position
};

// Reads a case at T's precision. A missing field, a wrong shape, kv_heads not dividing
// query_heads, an odd head_dim, a size beyond the limits above or a number that does not parse
// (or is out of T's range) is an InputFileError naming `source` and the field.
template <class T>
BlockCase<T> read_block_case(const nlohmann::ordered_json& json, const std::string& source);

// Only the configuration object (the "config" of a case, or modern-config.json).
template <class T>
BlockConfig<T> read_block_config(const nlohmann::ordered_json& json, const std::string& where);

// A finite number at T's precision from a JSON number or numeric string; `where` names the field.
template <class T>
T json_number(const nlohmann::ordered_json& value, const std::string& where);

// The rope_scaling object (`key`) of a configuration `config` as Hugging Face writes it ("type" or
// "rope_type", null for none), for RoPE of width head_dim; the original context falls back on
// config.max_position_embeddings. Also read by checker/block/detail/rope_config.cpp for config.json files.
template <class T>
RopeScaling<T> read_rope_scaling(const nlohmann::ordered_json& config, std::size_t head_dim, const std::string& where,
                                 const std::string& key = "rope_scaling");

// The block on the case's input rows, after its cached keys and values.  -> [T, hidden_size]
template <class T>
Matrix<T> block_case_forward(const BlockCase<T>& bc, Trace<T>* trace = nullptr) {
    KvCache<T> cache = bc.cached;
    return block_step(bc.config, bc.weights, bc.input, bc.start_position, cache, trace);
}

}  // namespace blockcheck
