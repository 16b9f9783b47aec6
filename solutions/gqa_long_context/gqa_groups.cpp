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

Values gqa_groups(const Inputs& in) {
    const Count query_heads = positive_count(in, "query_heads");
    const Count kv_heads = positive_count(in, "kv_heads");
    if (query_heads % kv_heads != 0) throw InputError("input 'kv_heads' should divide 'query_heads'");
    const HeadLayout layout{query_heads, kv_heads, 1};
    // Query head h reads key/value head h / group.  Mistakes wrong_kv_head (h mod kv_heads) and
    // divided_by_kv_heads (h / kv_heads: the number of groups taken for the group size).
    auto kv_head_of = [&](std::size_t h) {
        if (in.mistake("wrong_kv_head")) return h % kv_heads;
        return in.mistake("divided_by_kv_heads") ? h / kv_heads : layout.kv_head_of(h);
    };

    const Vector<Real>& look_up = in.vector("query_heads_to_look_up");
    Vector<Real> kv_of(look_up.size());
    for (std::size_t i = 0; i < look_up.size(); ++i)
        kv_of[i] = Real(static_cast<long>(kv_head_of(head_index(look_up[i], layout, "query_heads_to_look_up"))));

    const std::size_t shared = kv_head_of(head_index(in.number("query_head"), layout, "query_head"));
    Vector<Real> sharing;
    for (std::size_t h = 0; h < query_heads; ++h)
        if (kv_head_of(h) == shared) sharing.push_back(Real(static_cast<long>(h)));
    // Mistake group_end_off_by_one: the group listed up to (group + 1) * size, one head too many.
    if (in.mistake("group_end_off_by_one")) sharing.push_back(sharing.back() + 1);
    return {
        {"heads_per_group", companion::count(layout.group_size())},
        {"kv_head_of_query", kv_of},
        {"query_heads_sharing", sharing},
    };
}

}  // namespace blockcheck
