// Parameter counts (table 25.2) and the KV cache's size.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace blockcheck {

using Count = std::uint64_t;

// The counts below are Count by default; a reference generic over its scalar computes them on
// the scalar N it runs on (the tape records them), whole numbers all the way.
template <class N>
using CountOf = std::type_identity_t<N>;

// floor(a / b) for whole numbers a, b >= 0: integer division, on a scalar too.
template <class N>
N whole_quotient(const N& a, const N& b) {
    using std::floor;
    if constexpr (std::is_integral_v<N>) return a / b;
    else return floor(a / b);
}

// Matrix parameters of the FFNs, without biases or norm gains.
// ReLU: 2 C F (up and down); SwiGLU: 3 C F (gate, up, down).
template <class N = Count>
N relu_ffn_parameters(CountOf<N> hidden, CountOf<N> ffn_hidden_size) { return N(2) * hidden * ffn_hidden_size; }
template <class N = Count>
N swiglu_ffn_parameters(CountOf<N> hidden, CountOf<N> ffn_hidden_size) { return N(3) * hidden * ffn_hidden_size; }

// SwiGLU width with the same matrix budget as a ReLU FFN of width F: 3 C F' = 2 C F.
template <class N = Count>
N swiglu_width_matching_relu(CountOf<N> relu_ffn_hidden_size) { return whole_quotient<N>(N(2) * relu_ffn_hidden_size, N(3)); }

// LLaMA's FFN width: two thirds of 4 C, rounded up to a multiple of m.
template <class N = Count>
N llama_ffn_hidden(CountOf<N> hidden, CountOf<N> multiple) {
    const N width = whole_quotient<N>(N(2) * (N(4) * hidden), N(3));
    return whole_quotient<N>(width + multiple - N(1), multiple) * multiple;
}

// Every parameter of one pre-norm block without biases.
template <class N = Count>
struct BlockParameters {
    N attn_norm, q, k, v, o, ffn_norm, gate, up, down;

    N attention() const { return q + k + v + o; }
    N ffn() const { return gate + up + down; }
    N norms() const { return attn_norm + ffn_norm; }
    N total() const { return attention() + ffn() + norms(); }
};

template <class N = Count>
BlockParameters<N> block_parameters(CountOf<N> hidden, CountOf<N> query_heads, CountOf<N> kv_heads, CountOf<N> head_dim,
                                    CountOf<N> ffn_hidden_size) {
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
template <class N = Count>
N kv_cache_bytes(CountOf<N> layers, CountOf<N> kv_heads, CountOf<N> head_dim, CountOf<N> sequence, CountOf<N> batch,
                 CountOf<N> bytes_per_element) {
    return N(2) * layers * kv_heads * head_dim * sequence * batch * bytes_per_element;
}

}  // namespace blockcheck
