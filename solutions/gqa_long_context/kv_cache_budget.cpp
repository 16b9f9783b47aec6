// How many sequences fit in a memory budget for their KV cache: MHA against GQA and MQA.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> kv_cache_budget(const Inputs& in) {
    const S layers = whole_of<S>(in, "layers", 1);
    const S query_heads = whole_of<S>(in, "query_heads", 1);
    const S kv_heads = whole_of<S>(in, "kv_heads", 1);
    const S head_dim = whole_of<S>(in, "head_dim", 1);
    const S sequence = whole_of<S>(in, "sequence", 1);
    const S bytes = whole_of<S>(in, "bytes_per_element", 1);
    const S budget = whole_of<S>(in, "budget_gib", 1) * companion::gib_bytes<S>(in);  // GiB -> bytes
    if (positive_count(in, "query_heads") % positive_count(in, "kv_heads") != 0)
        throw InputError("input 'kv_heads' should divide 'query_heads'");

    // One sequence is a batch of one; whole sequences only.
    // (the student's own bytes, when a batch is judged from them)
    const S mha = companion::given_count(in, "mha_bytes_per_sequence",
                                         companion::kv_bytes(in, layers, query_heads, head_dim, sequence, S(1), bytes));
    const S gqa = companion::given_count(in, "gqa_bytes_per_sequence",
                                         companion::kv_bytes(in, layers, kv_heads, head_dim, sequence, S(1), bytes));
    const S mqa = companion::kv_bytes(in, layers, S(1), head_dim, sequence, S(1), bytes);
    if (mha == 0 || gqa == 0) throw InputError("a sequence of no bytes fits without end");
    return {
        {"mha_bytes_per_sequence", mha},
        {"gqa_bytes_per_sequence", gqa},
        {"mha_max_batch", companion::whole_sequences(in, budget, mha)},
        {"gqa_max_batch", companion::whole_sequences(in, budget, gqa)},
        {"mqa_max_batch", companion::whole_sequences(in, budget, mqa)},
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(kv_cache_budget)

}  // namespace blockcheck
