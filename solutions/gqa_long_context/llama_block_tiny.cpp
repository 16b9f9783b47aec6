// The LLaMA block on a tiny configuration: pre-norm RMSNorm, Q/K/V, RoPE on Q and K, causal
// GQA attention, output projection, residual R; RMSNorm, SwiGLU FFN, residual.
#include "solutions/gqa_long_context/tiny_block.hpp"

namespace blockcheck {

Values llama_block_tiny(const Inputs& in) {
    const companion::TinyBlock b = companion::read_tiny_block(in);
    Trace<Real> trace;
    block_forward(b.config, b.weights, b.x, 0, &trace);  // rows at positions 0 .. T-1
    return {
        {"attention_input", trace.at("N")},  // RMSNorm(X)
        {"residual", trace.at("R")},         // X + Attn(N)
        {"ffn_input", trace.at("M")},        // RMSNorm(R)
        {"output", trace.at("output")},      // R + FFN(M)
    };
}

}  // namespace blockcheck
