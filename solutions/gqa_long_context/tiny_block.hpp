// The LLaMA block exercises' inputs: a tiny configuration, its weights and the input rows.
#pragma once

#include "solutions/block/block.hpp"
#include "solutions/block/block_mistakes.hpp"
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck::companion {

template <class S>
struct TinyBlock {
    BlockConfig<S> config;
    BlockWeights<S> weights;
    Matrix<S> x;  // [T, C], the rows at positions 0 .. T-1
};

namespace detail {
template <class S>
void expect_shape(const Matrix<S>& m, std::size_t rows, std::size_t cols, const char* name) {
    if (m.rows != rows || m.cols != cols)
        throw InputError(std::string("input '") + name + "' should be a " + std::to_string(rows) + "x" +
                         std::to_string(cols) + " matrix");
}
template <class S>
void expect_length(const Vector<S>& v, std::size_t length, const char* name) {
    if (v.size() != length)
        throw InputError(std::string("input '") + name + "' should have " + std::to_string(length) + " entries");
}
}  // namespace detail

// Reads the configuration (query_heads, kv_heads, head_dim, rms_norm_eps, rope_theta), the
// weights (attn_norm, q, k, v, o, ffn_norm, gate, up, down, named as in block cases) and x.
// The hidden size is x's width and the FFN width gate's; every shape is checked against them.
// Every number is scalar S (on the tape: the inputs' leaves).
template <class S>
TinyBlock<S> read_tiny_block(const Inputs& in) {
    TinyBlock<S> b;
    b.x = matrix_of<S>(in, "x");
    BlockConfig<S>& c = b.config;
    c.hidden_size = b.x.cols;
    c.query_heads = static_cast<std::size_t>(integer_at_least(in, "query_heads", 1));
    c.kv_heads = static_cast<std::size_t>(integer_at_least(in, "kv_heads", 1));
    c.head_dim = static_cast<std::size_t>(integer_at_least(in, "head_dim", 2));
    c.rms_norm_eps = number_of<S>(in, "rms_norm_eps");
    c.rope_theta = positive_number<S>(in, "rope_theta");
    c.rope_layout = RopeLayout::interleaved;  // pairs (2i, 2i+1), as Meta's LLaMA code
    c.pre_norm = true;
    // every slip of the block's own mechanisms, by its switch (block_mistakes.hpp)
    in.mistake_on([&](std::string_view id) { return make_porting_mistake(c, id); });
    if (c.query_heads % c.kv_heads != 0) throw InputError("input 'kv_heads' should divide 'query_heads'");
    if (c.head_dim % 2 != 0) throw InputError("input 'head_dim' should be even");
    if (c.rms_norm_eps < 0) throw InputError("input 'rms_norm_eps' should not be negative");

    BlockWeights<S>& w = b.weights;
    w.attn_norm = vector_of<S>(in, "attn_norm");
    w.q = matrix_of<S>(in, "q");
    w.k = matrix_of<S>(in, "k");
    w.v = matrix_of<S>(in, "v");
    w.o = matrix_of<S>(in, "o");
    w.ffn_norm = vector_of<S>(in, "ffn_norm");
    w.gate = matrix_of<S>(in, "w_gate");
    w.up = matrix_of<S>(in, "w_up");
    w.down = matrix_of<S>(in, "w_down");
    c.ffn_hidden_size = w.gate.cols;
    if (in.mistake("gain_omitted"))  // RMSNorm without its gains g
        w.attn_norm = w.ffn_norm = Vector<S>(w.attn_norm.size(), S(1));
    if (in.mistake("sum_not_mean")) {  // g x / sqrt(sum_j x_j^2 + eps) = (g / sqrt(C)) x / sqrt(mean_j x_j^2 + eps / C)
        using std::sqrt;
        const S width(static_cast<long>(c.hidden_size));
        for (Vector<S>* gains : {&w.attn_norm, &w.ffn_norm})
            for (S& g : *gains) g /= sqrt(width);
        c.rms_norm_eps /= width;
    }

    const std::size_t C = c.hidden_size, F = c.ffn_hidden_size;
    detail::expect_length(w.attn_norm, C, "attn_norm");
    detail::expect_length(w.ffn_norm, C, "ffn_norm");
    detail::expect_shape(w.q, C, c.query_heads * c.head_dim, "q");
    detail::expect_shape(w.k, C, c.kv_heads * c.head_dim, "k");
    detail::expect_shape(w.v, C, c.kv_heads * c.head_dim, "v");
    detail::expect_shape(w.o, c.query_heads * c.head_dim, C, "o");
    detail::expect_shape(w.up, C, F, "w_up");
    detail::expect_shape(w.down, F, C, "w_down");
    return b;
}

}  // namespace blockcheck::companion
