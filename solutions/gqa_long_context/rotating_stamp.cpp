// The rotating stamp: every position turns the pointer a fixed angle (30 degrees in the
// companion); two stamped arrows compare through the difference of their turns.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> rotating_stamp(const Inputs& in) {
    const Rope<S> rope = companion::stamp_rope<S>(in);
    const Vector<S> positions = vector_of<S>(in, "positions");
    const S query_position = whole_of<S>(in, "query_position", 0);
    const S key_position = whole_of<S>(in, "key_position", 0);
    pair_input(in, "query"), pair_input(in, "key");  // two coordinates each
    const Vector<S> query = vector_of<S>(in, "query"), key = vector_of<S>(in, "key");

    // The pointer's angle at each position, in degrees and not reduced modulo 360.
    Vector<S> stamp_angles(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) stamp_angles[i] = degrees(rope_angle(rope, 0, positions[i]));

    const Vector<S> q = rope_rotate(query, rope, query_position);
    const Vector<S> k = rope_rotate(key, rope, key_position);
    // key's turn minus the query's.  Mistake difference_reversed: the query's minus the key's.
    S relative = rope_angle(rope, 0, key_position) - rope_angle(rope, 0, query_position);
    if (in.mistake("difference_reversed")) relative = -relative;
    // Mistake dot_before_rotation: the dot of the arrows not yet turned.
    // (the student's own stamped arrows, when the dot is judged from them)
    const S stamped_dot = in.mistake("dot_before_rotation") ? dot<S>(query, key)
                                                            : dot<S>(in.given_or("rope_query", q), in.given_or("rope_key", k));
    return {
        {"stamp_angle_degrees", stamp_angles},
        {"relative_angle_degrees", degrees(relative)},
        {"rope_query", q},
        {"rope_key", k},
        {"dot", stamped_dot},  // unscaled
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(rotating_stamp)

}  // namespace blockcheck
