// Interview questions. Two statements are settled by the block itself (GQA's extremes, and
// what linear interpolation does to neighbours); the others are the facts the companion and
// chapter 25 argue, explained in the exercise file.
#include "solutions/gqa_long_context/references.hpp"
#include "solutions/block/attention.hpp"

namespace blockcheck {

Values interview_questions(const Inputs& in) {
    const Count query_heads = positive_count(in, "query_heads");
    const Real factor = companion::positive_number<Real>(in, "factor");
    if (factor <= 1) throw InputError("input 'factor' should be larger than 1 (a longer context)");

    // One KV head: every query head reads head 0 (MQA). As many as query heads: head h reads
    // its own (MHA).
    const HeadLayout one_group{query_heads, 1, 1}, all_groups{query_heads, query_heads, 1};
    bool extremes = true;
    for (std::size_t h = 0; h < query_heads; ++h)
        extremes = extremes && one_group.kv_head_of(h) == 0 && all_groups.kv_head_of(h) == h;

    // Neighbouring positions m and m + 1 differ by one step of the stamp; after interpolation
    // by one step divided by the factor.
    const Rope<Real> rope = companion::stamp_rope<Real>(in);
    const Rope<Real> squeezed = companion::interpolated(rope, factor);
    const bool keeps_neighbour_angle = rope_angle(squeezed, 0, Real(1)) == rope_angle(rope, 0, Real(1));

    return {
        {"rope_rotates_v", companion::boolean(false)},
        {"max_context_proves_ability", companion::boolean(false)},
        {"gqa_extremes_are_mqa_and_mha", companion::boolean(extremes)},
        {"interpolation_keeps_neighbour_angle", companion::boolean(keeps_neighbour_angle)},
        {"kv_cache_grows_with", companion::choice("B")},  // the KV heads, not the query heads
        {"ntk_slows_most", companion::choice("C")},       // the slowest pairs, the last by exactly s
    };
}

}  // namespace blockcheck
