// The rotating stamp: every position turns the pointer a fixed angle (30 degrees in the
// companion); two stamped arrows compare through the difference of their turns.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

Values rotating_stamp(const Inputs& in) {
    const Rope<Real> rope = companion::stamp_rope(in);
    const Vector<Real>& positions = in.vector("positions");
    const long query_position = integer_at_least(in, "query_position", 0);
    const long key_position = integer_at_least(in, "key_position", 0);

    // The pointer's angle at each position, in degrees and not reduced modulo 360.
    Vector<Real> stamp_angles(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i)
        stamp_angles[i] = companion::degrees(rope_angle(rope, 0, positions[i]));

    const Vector<Real> q = rope_rotate(pair_input(in, "query"), rope, Real(query_position));
    const Vector<Real> k = rope_rotate(pair_input(in, "key"), rope, Real(key_position));
    // key's turn minus the query's.  Mistake difference_reversed: the query's minus the key's.
    Real relative = rope_angle(rope, 0, Real(key_position)) - rope_angle(rope, 0, Real(query_position));
    if (in.mistake("difference_reversed")) relative = -relative;
    // Mistake dot_before_rotation: the dot of the arrows not yet turned.
    // (the student's own stamped arrows, when the dot is judged from them)
    const Real stamped_dot = in.mistake("dot_before_rotation")
                                 ? dot<Real>(pair_input(in, "query"), pair_input(in, "key"))
                                 : dot<Real>(in.given_or("rope_query", q), in.given_or("rope_key", k));
    return {
        {"stamp_angle_degrees", stamp_angles},
        {"relative_angle_degrees", companion::degrees(relative)},
        {"rope_query", q},
        {"rope_key", k},
        {"dot", stamped_dot},  // unscaled
    };
}

}  // namespace blockcheck
