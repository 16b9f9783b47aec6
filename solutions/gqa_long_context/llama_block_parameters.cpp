// Where the parameters of one LLaMA block live: attention, the SwiGLU FFN, the two norms.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> llama_block_parameters(const Inputs& in) {
    const S hidden = whole_of<S>(in, "hidden_size", 1);
    const S query_heads = whole_of<S>(in, "query_heads", 1);
    const S kv_heads = whole_of<S>(in, "kv_heads", 1);
    const S head_dim = whole_of<S>(in, "head_dim", 1);
    const S multiple = whole_of<S>(in, "multiple_of", 1);
    if (positive_count(in, "query_heads") % positive_count(in, "kv_heads") != 0)
        throw InputError("input 'kv_heads' should divide 'query_heads'");

    // Mistake relu_width_for_swiglu: the ReLU FFN's 4 C kept as SwiGLU's width.
    const S ffn_hidden = companion::given_count(
        in, "ffn_hidden_size", in.mistake("relu_width_for_swiglu") ? S(S(4) * hidden) : companion::ffn_width(in, hidden, multiple));
    BlockParameters<S> p = block_parameters<S>(hidden, query_heads, kv_heads, head_dim, ffn_hidden);
    if (in.mistake("matrix_missing")) p.gate = S(0);   // SwiGLU counted with two matrices
    if (in.mistake("matrix_counted_twice")) p.up *= S(2);  // the up matrix counted twice
    if (in.mistake("bias_counted")) {                  // a bias on every matrix's output
        p.q += query_heads * head_dim, p.k += kv_heads * head_dim, p.v += kv_heads * head_dim, p.o += hidden;
        p.gate += ffn_hidden, p.up += ffn_hidden, p.down += hidden;
    }
    // The totals from their parts (the student's own, when a step is judged from them).
    const S attention = in.given_or("attention_parameters", p.attention());
    const S ffn = in.given_or("ffn_parameters", p.ffn());
    const S norms = in.given_or("norm_parameters", p.norms());
    // Mistake norms_forgotten: the gains left out of the block's total.
    const S total = in.given_or("block_parameters", in.mistake("norms_forgotten") ? S(attention + ffn) : S(attention + ffn + norms));
    if (total == 0) throw InputError("a block of no parameters has no share");
    return {
        {"ffn_hidden_size", ffn_hidden},
        {"attention_parameters", attention},
        {"ffn_parameters", ffn},
        {"norm_parameters", norms},
        {"block_parameters", total},
        {"ffn_share", S(ffn / total)},
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(llama_block_parameters)

}  // namespace blockcheck
