// Moving both stamped arrows by the same number of positions leaves their dot product as it
// was: (R_{m θ} q) · (R_{n θ} k) = q · R_{(n-m) θ} k.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> stamp_relative_position(const Inputs& in) {
    const Rope<S> rope = companion::stamp_rope<S>(in);
    pair_input(in, "query"), pair_input(in, "key");  // two coordinates each
    const Vector<S> query = vector_of<S>(in, "query"), key = vector_of<S>(in, "key");
    const S m = whole_of<S>(in, "query_position", 0);
    const S n = whole_of<S>(in, "key_position", 0);
    const S shift = whole_of<S>(in, "shift", 0);

    // Mistake dot_before_rotation: the dot of the arrows not yet turned.
    auto stamped_dot = [&](const S& query_at, const S& key_at) {
        if (in.mistake("dot_before_rotation")) return dot<S>(query, key);
        return dot<S>(rope_rotate(query, rope, query_at), rope_rotate(key, rope, key_at));
    };
    return {
        {"dot", stamped_dot(m, n)},
        {"shifted_dot", stamped_dot(m + shift, n + shift)},
        // the query left where it is, the key turned by the difference alone
        // Mistake difference_reversed: the key turned by m - n.
        {"relative_dot", stamped_dot(S(0), in.mistake("difference_reversed") ? S(m - n) : S(n - m))},
        {"dot_depends_on", ValueOf<S>(Choice{"B"})},  // only the position difference n - m
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(stamp_relative_position)

}  // namespace blockcheck
