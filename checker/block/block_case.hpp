// Block case files (docs/block-case.md): a configuration, one block's weights and input rows.
#pragma once

#include "checker/common/json_exact.hpp"
#include "solutions/block/block.hpp"
#include "solutions/block/real.hpp"

namespace blockcheck {

template <class T>
struct BlockCase {
    BlockConfig<T> config;
    BlockWeights<T> weights;
    long start_position = 0;
    Matrix<T> input;  // [T, hidden_size]
};

// Reads a case at T's precision. A missing field, a wrong shape, kv_heads not dividing
// query_heads, an odd head_dim or a number that does not parse is an InputFileError naming
// `source` and the field.
template <class T>
BlockCase<T> read_block_case(const nlohmann::ordered_json& json, const std::string& source);

// Only the configuration object (the "config" of a case, or modern-config.json).
template <class T>
BlockConfig<T> read_block_config(const nlohmann::ordered_json& json, const std::string& where);

}  // namespace blockcheck
