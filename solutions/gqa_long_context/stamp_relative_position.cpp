// Moving both stamped arrows by the same number of positions leaves their dot product as it
// was: (R_{m θ} q) · (R_{n θ} k) = q · R_{(n-m) θ} k.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

Values stamp_relative_position(const Inputs& in) {
    const Rope<Real> rope = companion::stamp_rope(in);
    const Vector<Real>& query = pair_input(in, "query");
    const Vector<Real>& key = pair_input(in, "key");
    const Real m(integer_at_least(in, "query_position", 0));
    const Real n(integer_at_least(in, "key_position", 0));
    const Real shift(integer_at_least(in, "shift", 0));

    // Mistake dot_before_rotation: the dot of the arrows not yet turned.
    auto stamped_dot = [&](const Real& query_at, const Real& key_at) {
        if (in.mistake("dot_before_rotation")) return dot<Real>(query, key);
        return dot<Real>(rope_rotate(query, rope, query_at), rope_rotate(key, rope, key_at));
    };
    return {
        {"dot", stamped_dot(m, n)},
        {"shifted_dot", stamped_dot(m + shift, n + shift)},
        // the query left where it is, the key turned by the difference alone
        // Mistake difference_reversed: the key turned by m - n.
        {"relative_dot", stamped_dot(Real(0), in.mistake("difference_reversed") ? m - n : n - m)},
        {"dot_depends_on", companion::choice("B")},  // only the position difference n - m
    };
}

}  // namespace blockcheck
