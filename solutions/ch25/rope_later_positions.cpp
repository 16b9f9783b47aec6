// Exercise 25.6-1: the rotation example at later positions, and causal visibility.
#include "solutions/ch25/references.hpp"
#include "solutions/block/rope.hpp"

namespace blockcheck {

Values rope_later_positions(const Inputs& in) {
    const Real angle_degrees = in.number("angle_degrees");
    const long query_position = in.integer("query_position");
    const long key_position = in.integer("key_position");
    const Rope<Real> rope = ch25::fixed_angle_rope(in, angle_degrees);

    Vector<Real> q = rope_rotate(pair_input(in, "query"), rope, Real(query_position));
    Vector<Real> k = rope_rotate(pair_input(in, "key"), rope, Real(key_position));
    return {
        {"rope_query", q},
        {"rope_key", k},
        // Mistake dot_before_rotation: the dot of the arrows not yet turned.
        {"dot", in.mistake("dot_before_rotation") ? dot<Real>(pair_input(in, "query"), pair_input(in, "key")) : dot<Real>(q, k)},
        // (R_{m θ} q) · (R_{n θ} k) = q · R_{(n-m) θ} k: only the difference of the turns counts.
        {"relative_angle_degrees", ch25::relative_steps(in, query_position, key_position) * angle_degrees},
        // The causal mask (attention.hpp): key j is visible iff its position <= the query's.
        // Mistake mask_reversed: iff it is >= the query's (the future visible, the past hidden).
        {"causal_can_use_key", ch25::boolean(in.mistake("mask_reversed") ? key_position >= query_position
                                                                         : key_position <= query_position)},
    };
}

}  // namespace blockcheck
