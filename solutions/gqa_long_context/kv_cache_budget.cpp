// How many sequences fit in a memory budget for their KV cache: MHA against GQA and MQA.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

Values kv_cache_budget(const Inputs& in) {
    const Count layers = positive_count(in, "layers");
    const Count query_heads = positive_count(in, "query_heads");
    const Count kv_heads = positive_count(in, "kv_heads");
    const Count head_dim = positive_count(in, "head_dim");
    const Count sequence = positive_count(in, "sequence");
    const Count bytes = positive_count(in, "bytes_per_element");
    const Count budget = positive_count(in, "budget_gib") * companion::gib_bytes(in);  // GiB -> bytes
    if (query_heads % kv_heads != 0) throw InputError("input 'kv_heads' should divide 'query_heads'");

    // One sequence is a batch of one; whole sequences only.
    // (the student's own bytes, when a batch is judged from them)
    const Count mha = companion::given_count(in, "mha_bytes_per_sequence",
                                             companion::kv_bytes(in, layers, query_heads, head_dim, sequence, 1, bytes));
    const Count gqa = companion::given_count(in, "gqa_bytes_per_sequence",
                                             companion::kv_bytes(in, layers, kv_heads, head_dim, sequence, 1, bytes));
    const Count mqa = companion::kv_bytes(in, layers, 1, head_dim, sequence, 1, bytes);
    if (mha == 0 || gqa == 0) throw InputError("a sequence of no bytes fits without end");
    return {
        {"mha_bytes_per_sequence", companion::count(mha)},
        {"gqa_bytes_per_sequence", companion::count(gqa)},
        {"mha_max_batch", companion::count(companion::whole_sequences(in, budget, mha))},
        {"gqa_max_batch", companion::count(companion::whole_sequences(in, budget, gqa))},
        {"mqa_max_batch", companion::count(companion::whole_sequences(in, budget, mqa))},
    };
}

}  // namespace blockcheck
