// Exercise 25.6-1: the rotation example at later positions, and causal visibility.
#include "solutions/ch25/references.hpp"
#include "solutions/block/rope.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> rope_later_positions(const Inputs& in) {
    const S angle_degrees = number_of<S>(in, "angle_degrees");
    const long query_position = in.integer("query_position");
    const long key_position = in.integer("key_position");
    const S query_at = number_of<S>(in, "query_position"), key_at = number_of<S>(in, "key_position");
    const Rope<S> rope = ch25::fixed_angle_rope(in, angle_degrees);
    const Vector<S> query = pair_of<S>(in, "query"), key = pair_of<S>(in, "key");  // [2] each

    Vector<S> q = rope_rotate(query, rope, query_at);
    Vector<S> k = rope_rotate(key, rope, key_at);
    return {
        {"rope_query", q},
        {"rope_key", k},
        // Mistake dot_before_rotation: the dot of the arrows not yet turned.
        {"dot", in.mistake("dot_before_rotation") ? dot<S>(query, key) : dot<S>(q, k)},
        // (R_{m θ} q) · (R_{n θ} k) = q · R_{(n-m) θ} k: only the difference of the turns counts.
        {"relative_angle_degrees", S(ch25::relative_steps(in, query_at, key_at) * angle_degrees)},
        // The causal mask (attention.hpp): key j is visible iff its position <= the query's.
        // Mistake mask_reversed: iff it is >= the query's (the future visible, the past hidden).
        {"causal_can_use_key", boolean_of<S>(in.mistake("mask_reversed") ? key_position >= query_position
                                                                        : key_position <= query_position)},
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(rope_later_positions)

}  // namespace blockcheck
