// The KV cache of MHA, GQA and MQA on one configuration, in bytes and as ratios.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> kv_cache_sizes(const Inputs& in) {
    const S layers = whole_of<S>(in, "layers", 1);
    const S query_heads = whole_of<S>(in, "query_heads", 1);
    const S kv_heads = whole_of<S>(in, "kv_heads", 1);
    const S head_dim = whole_of<S>(in, "head_dim", 1);
    const S sequence = whole_of<S>(in, "sequence", 1);
    const S batch = whole_of<S>(in, "batch", 1);
    const S bytes = whole_of<S>(in, "bytes_per_element", 1);
    if (positive_count(in, "query_heads") % positive_count(in, "kv_heads") != 0)
        throw InputError("input 'kv_heads' should divide 'query_heads'");

    // MHA keeps one K/V head per query head, MQA one for all of them.
    const S mha = companion::kv_bytes(in, layers, query_heads, head_dim, sequence, batch, bytes);
    const S gqa = companion::kv_bytes(in, layers, kv_heads, head_dim, sequence, batch, bytes);
    const S mqa = companion::kv_bytes(in, layers, S(1), head_dim, sequence, batch, bytes);
    const S gib = companion::gib_bytes<S>(in);
    // the ratios and the GiB from the byte counts (the student's own, when a step is judged from them)
    const S mha_bytes = in.given_or("mha_kv_cache_bytes", mha);
    const S gqa_bytes = in.given_or("gqa_kv_cache_bytes", gqa);
    const S mqa_bytes = in.given_or("mqa_kv_cache_bytes", mqa);
    if (gqa_bytes == 0 || mqa_bytes == 0) throw InputError("a byte count of zero divides nothing");
    return {
        {"mha_kv_cache_bytes", mha_bytes},
        {"gqa_kv_cache_bytes", gqa_bytes},
        {"mqa_kv_cache_bytes", mqa_bytes},
        {"mha_to_gqa_ratio", S(mha_bytes / gqa_bytes)},
        {"gqa_to_mqa_ratio", S(gqa_bytes / mqa_bytes)},
        {"gqa_kv_cache_gib", S(gqa_bytes / gib)},
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(kv_cache_sizes)

}  // namespace blockcheck
