// GQA: query heads in groups, each group reading one shared key/value head.
#include "solutions/gqa_long_context/references.hpp"
#include "solutions/block/attention.hpp"

namespace blockcheck {

namespace {

// A query head's index from a vector input.
std::size_t head_index(const Real& x, const HeadLayout& layout, const char* input) {
    using std::floor;
    if (floor(x) != x || x < 0 || x >= Real(static_cast<long>(layout.query_heads)))
        throw InputError(std::string("input '") + input + "' should hold query head indices from 0 to query_heads - 1");
    return x.convert_to<std::size_t>();
}

}  // namespace

template <class S>
ValuesOf<S> gqa_groups(const Inputs& in) {
    const Count query_heads = positive_count(in, "query_heads");
    const Count kv_heads = positive_count(in, "kv_heads");
    if (query_heads % kv_heads != 0) throw InputError("input 'kv_heads' should divide 'query_heads'");
    const HeadLayout layout{query_heads, kv_heads, 1};
    const S queries = whole_of<S>(in, "query_heads", 1), kvs = whole_of<S>(in, "kv_heads", 1);
    const S group = queries / kvs;  // query heads a group: query_heads / kv_heads
    // Query head h reads key/value head h / group.  Mistakes wrong_kv_head (h mod kv_heads) and
    // divided_by_kv_heads (h / kv_heads: the number of groups taken for the group size).
    auto kv_head_of = [&](const S& h) {
        if (in.mistake("wrong_kv_head")) return S(h - whole_quotient<S>(h, kvs) * kvs);
        return in.mistake("divided_by_kv_heads") ? whole_quotient<S>(h, kvs) : whole_quotient<S>(h, group);
    };

    const Vector<Real>& look_up = in.vector("query_heads_to_look_up");
    const Vector<S> heads = vector_of<S>(in, "query_heads_to_look_up");
    Vector<S> kv_of;
    for (std::size_t i = 0; i < look_up.size(); ++i) {
        head_index(look_up[i], layout, "query_heads_to_look_up");
        kv_of.push_back(kv_head_of(heads[i]));
    }

    head_index(in.number("query_head"), layout, "query_head");
    const Real shared = real_of(kv_head_of(number_of<S>(in, "query_head")));
    Vector<S> sharing;  // the heads whose KV head is the shared one: a list, not a computation
    for (std::size_t h = 0; h < query_heads; ++h)
        if (real_of(kv_head_of(S(static_cast<long>(h)))) == shared) sharing.push_back(S(static_cast<long>(h)));
    // Mistake group_end_off_by_one: the group listed up to (group + 1) * size, one head too many.
    if (in.mistake("group_end_off_by_one")) sharing.push_back(sharing.back() + S(1));
    return {
        {"heads_per_group", group},
        {"kv_head_of_query", kv_of},
        {"query_heads_sharing", sharing},
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(gqa_groups)

}  // namespace blockcheck
