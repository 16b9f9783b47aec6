// Interview questions. Two statements are settled by the block itself (GQA's extremes, and
// what linear interpolation does to neighbours); the others are the facts the companion and
// chapter 25 argue, explained in the exercise file. Every answer is true/false or a choice: the
// tape of this reference holds no answer's number (its comparisons are taken on the values).
#include "solutions/gqa_long_context/references.hpp"
#include "solutions/block/attention.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> interview_questions(const Inputs& in) {
    const Count query_heads = positive_count(in, "query_heads");
    const S factor = companion::positive_number<S>(in, "factor");
    if (factor <= 1) throw InputError("input 'factor' should be larger than 1 (a longer context)");

    // One KV head: every query head reads head 0 (MQA). As many as query heads: head h reads
    // its own (MHA).
    const HeadLayout one_group{query_heads, 1, 1}, all_groups{query_heads, query_heads, 1};
    bool extremes = true;
    for (std::size_t h = 0; h < query_heads; ++h)
        extremes = extremes && one_group.kv_head_of(h) == 0 && all_groups.kv_head_of(h) == h;

    // Neighbouring positions m and m + 1 differ by one step of the stamp; after interpolation
    // by one step divided by the factor.
    const Rope<S> rope = companion::stamp_rope<S>(in);
    const Rope<S> squeezed = companion::interpolated(rope, factor);
    const bool keeps_neighbour_angle = rope_angle(squeezed, 0, S(1)) == rope_angle(rope, 0, S(1));

    return {
        {"rope_rotates_v", boolean_of<S>(false)},
        {"max_context_proves_ability", boolean_of<S>(false)},
        {"gqa_extremes_are_mqa_and_mha", boolean_of<S>(extremes)},
        {"interpolation_keeps_neighbour_angle", boolean_of<S>(keeps_neighbour_angle)},
        {"kv_cache_grows_with", choice_of<S>("B")},  // the KV heads, not the query heads
        {"ntk_slows_most", choice_of<S>("C")},       // the slowest pairs, the last by exactly s
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(interview_questions)

}  // namespace blockcheck
