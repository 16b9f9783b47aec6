// Where the parameters of one LLaMA block live: attention, the SwiGLU FFN, the two norms.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

Values llama_block_parameters(const Inputs& in) {
    const Count hidden = positive_count(in, "hidden_size");
    const Count query_heads = positive_count(in, "query_heads");
    const Count kv_heads = positive_count(in, "kv_heads");
    const Count head_dim = positive_count(in, "head_dim");
    const Count multiple = positive_count(in, "multiple_of");
    if (query_heads % kv_heads != 0) throw InputError("input 'kv_heads' should divide 'query_heads'");

    // Mistake relu_width_for_swiglu: the ReLU FFN's 4 C kept as SwiGLU's width.
    const Count ffn_hidden = companion::given_count(
        in, "ffn_hidden_size", in.mistake("relu_width_for_swiglu") ? 4 * hidden : companion::ffn_width(in, hidden, multiple));
    BlockParameters p = block_parameters(hidden, query_heads, kv_heads, head_dim, ffn_hidden);
    if (in.mistake("matrix_missing")) p.gate = 0;  // SwiGLU counted with two matrices
    if (in.mistake("matrix_counted_twice")) p.up *= 2;  // the up matrix counted twice
    if (in.mistake("bias_counted")) {               // a bias on every matrix's output
        p.q += query_heads * head_dim, p.k += kv_heads * head_dim, p.v += kv_heads * head_dim, p.o += hidden;
        p.gate += ffn_hidden, p.up += ffn_hidden, p.down += hidden;
    }
    // The totals from their parts (the student's own, when a step is judged from them).
    const Real attention = in.given_or("attention_parameters", Real(static_cast<unsigned long long>(p.attention())));
    const Real ffn = in.given_or("ffn_parameters", Real(static_cast<unsigned long long>(p.ffn())));
    const Real norms = in.given_or("norm_parameters", Real(static_cast<unsigned long long>(p.norms())));
    // Mistake norms_forgotten: the gains left out of the block's total.
    const Real total = in.given_or("block_parameters", in.mistake("norms_forgotten") ? Real(attention + ffn)
                                                                                     : Real(attention + ffn + norms));
    if (total == 0) throw InputError("a block of no parameters has no share");
    return {
        {"ffn_hidden_size", companion::count(ffn_hidden)},
        {"attention_parameters", attention},
        {"ffn_parameters", ffn},
        {"norm_parameters", norms},
        {"block_parameters", total},
        {"ffn_share", Real(ffn / total)},
    };
}

}  // namespace blockcheck
