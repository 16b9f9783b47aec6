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
    // the ratios and the GiB from the byte counts (the student's own, when a step is judged from them)
    const Real mha_bytes = in.given_or("mha_kv_cache_bytes", Real(static_cast<unsigned long long>(mha)));
    const Real gqa_bytes = in.given_or("gqa_kv_cache_bytes", Real(static_cast<unsigned long long>(gqa)));
    const Real mqa_bytes = in.given_or("mqa_kv_cache_bytes", Real(static_cast<unsigned long long>(mqa)));
    if (gqa_bytes == 0 || mqa_bytes == 0) throw InputError("a byte count of zero divides nothing");
    return {
        {"mha_kv_cache_bytes", mha_bytes},
        {"gqa_kv_cache_bytes", gqa_bytes},
        {"mqa_kv_cache_bytes", mqa_bytes},
        {"mha_to_gqa_ratio", Real(mha_bytes / gqa_bytes)},
        {"gqa_to_mqa_ratio", Real(gqa_bytes / mqa_bytes)},
        {"gqa_kv_cache_gib", Real(gqa_bytes / gib)},
    };
}

}  // namespace blockcheck
