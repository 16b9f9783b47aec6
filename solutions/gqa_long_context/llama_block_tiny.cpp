// The LLaMA block on a tiny configuration: pre-norm RMSNorm, Q/K/V, RoPE on Q and K, causal
// GQA attention, output projection, residual R; RMSNorm, SwiGLU FFN, residual.
#include "solutions/gqa_long_context/tiny_block.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> llama_block_tiny(const Inputs& in) {
    const companion::TinyBlock<S> b = companion::read_tiny_block<S>(in);
    Trace<S> trace;
    // the student's own stages, when a step is judged from them
    const std::pair<const char*, const char*> stages[] = {{"attention_input", "N"}, {"residual", "R"}, {"ffn_input", "M"}};
    for (const auto& [answer, stage] : stages)
        if (in.given(answer)) trace.give(stage, in.given_or(answer, b.x));
    block_forward(b.config, b.weights, b.x, 0, &trace);  // rows at positions 0 .. T-1
    return {
        {"attention_input", trace.at("N")},  // RMSNorm(X)
        {"residual", trace.at("R")},         // X + Attn(N)
        {"ffn_input", trace.at("M")},        // RMSNorm(R)
        {"output", trace.at("output")},      // R + FFN(M)
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(llama_block_tiny)

}  // namespace blockcheck
