// The KV cache of MHA, GQA and MQA on one configuration, in bytes and as ratios.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

Values kv_cache_sizes(const Inputs& in) {
    const Count layers = positive_count(in, "layers");
    const Count query_heads = positive_count(in, "query_heads");
    const Count kv_heads = positive_count(in, "kv_heads");
    const Count head_dim = positive_count(in, "head_dim");
    const Count sequence = positive_count(in, "sequence");
    const Count batch = positive_count(in, "batch");
    const Count bytes = positive_count(in, "bytes_per_element");
    if (query_heads % kv_heads != 0) throw InputError("input 'kv_heads' should divide 'query_heads'");

    // MHA keeps one K/V head per query head, MQA one for all of them.
    const Count mha = companion::kv_bytes(in, layers, query_heads, head_dim, sequence, batch, bytes);
    const Count gqa = companion::kv_bytes(in, layers, kv_heads, head_dim, sequence, batch, bytes);
    const Count mqa = companion::kv_bytes(in, layers, 1, head_dim, sequence, batch, bytes);
    const Real gib = Real(static_cast<unsigned long long>(companion::gib_bytes(in)));
    return {
        {"mha_kv_cache_bytes", companion::count(mha)},
        {"gqa_kv_cache_bytes", companion::count(gqa)},
        {"mqa_kv_cache_bytes", companion::count(mqa)},
        {"mha_to_gqa_ratio", Real(static_cast<unsigned long long>(mha)) / Real(static_cast<unsigned long long>(gqa))},
        {"gqa_to_mqa_ratio", Real(static_cast<unsigned long long>(gqa)) / Real(static_cast<unsigned long long>(mqa))},
        {"gqa_kv_cache_gib", Real(static_cast<unsigned long long>(gqa)) / gib},
    };
}

}  // namespace blockcheck
