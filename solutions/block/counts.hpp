// Parameter counts (table 25.2) and the KV cache's size.
#pragma once

#include <cstdint>

namespace blockcheck {

using Count = std::uint64_t;

// Matrix parameters of the FFNs, without biases or norm gains.
// ReLU: 2 C F (up and down); SwiGLU: 3 C F (gate, up, down).
inline Count relu_ffn_parameters(Count hidden, Count ffn_hidden_size) { return 2 * hidden * ffn_hidden_size; }
inline Count swiglu_ffn_parameters(Count hidden, Count ffn_hidden_size) { return 3 * hidden * ffn_hidden_size; }

// SwiGLU width with the same matrix budget as a ReLU FFN of width F: 3 C F' = 2 C F.
inline Count swiglu_width_matching_relu(Count relu_ffn_hidden_size) { return 2 * relu_ffn_hidden_size / 3; }

// LLaMA's FFN width: two thirds of 4 C, rounded up to a multiple of m.
inline Count llama_ffn_hidden(Count hidden, Count multiple) {
    Count width = 2 * (4 * hidden) / 3;
    return (width + multiple - 1) / multiple * multiple;
}

// Every parameter of one pre-norm block without biases.
struct BlockParameters {
    Count attn_norm, q, k, v, o, ffn_norm, gate, up, down;

    Count attention() const { return q + k + v + o; }
    Count ffn() const { return gate + up + down; }
    Count norms() const { return attn_norm + ffn_norm; }
    Count total() const { return attention() + ffn() + norms(); }
};

inline BlockParameters block_parameters(Count hidden, Count query_heads, Count kv_heads, Count head_dim,
                                        Count ffn_hidden_size) {
    return {hidden,
            hidden * query_heads * head_dim,
            hidden * kv_heads * head_dim,
            hidden * kv_heads * head_dim,
            query_heads * head_dim * hidden,
            hidden,
            hidden * ffn_hidden_size,
            hidden * ffn_hidden_size,
            ffn_hidden_size * hidden};
}

// bytes = 2 (K and V) x layers x kv_heads x head_dim x sequence x batch x bytes per element
inline Count kv_cache_bytes(Count layers, Count kv_heads, Count head_dim, Count sequence, Count batch,
                            Count bytes_per_element) {
    return 2 * layers * kv_heads * head_dim * sequence * batch * bytes_per_element;
}

}  // namespace blockcheck
