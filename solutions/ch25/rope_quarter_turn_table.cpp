// Table 25.1: turn the query and the key to their own positions, then compare them.
#include "solutions/ch25/references.hpp"
#include "solutions/block/rope.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> rope_quarter_turn_table(const Inputs& in) {
    const Vector<S> query = pair_of<S>(in, "query");  // [2]
    const Vector<S> key = pair_of<S>(in, "key");      // [2]
    const Vector<S> query_positions = vector_of<S>(in, "query_positions");
    const Vector<S> key_positions = vector_of<S>(in, "key_positions");
    if (query_positions.size() != key_positions.size())
        throw InputError("inputs 'query_positions' and 'key_positions' should have the same length");

    const Rope<S> rope = ch25::fixed_angle_rope(in, number_of<S>(in, "angle_degrees"));
    const std::size_t rows = query_positions.size();
    Matrix<S> rope_query(rows, 2), rope_key(rows, 2);  // one row per table row
    Vector<S> dots(rows);
    for (std::size_t r = 0; r < rows; ++r) {
        Vector<S> q = rope_rotate(query, rope, query_positions[r]);
        Vector<S> k = rope_rotate(key, rope, key_positions[r]);
        std::copy(q.begin(), q.end(), rope_query.row(r).begin());
        std::copy(k.begin(), k.end(), rope_key.row(r).begin());
    }
    // the dots from the turned rows (the student's own, when a step is judged from them)
    rope_query = in.given_or("rope_query", rope_query);
    rope_key = in.given_or("rope_key", rope_key);
    for (std::size_t r = 0; r < rows; ++r) {
        const Vector<S> q(rope_query.row(r).begin(), rope_query.row(r).end());
        const Vector<S> k(rope_key.row(r).begin(), rope_key.row(r).end());
        // unscaled: no 1/sqrt(d), no softmax.  Mistake dot_before_rotation: the arrows not yet turned.
        dots[r] = in.mistake("dot_before_rotation") ? dot<S>(query, key) : dot<S>(q, k);
    }
    return {{"rope_query", rope_query}, {"rope_key", rope_key}, {"dot", dots}};
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(rope_quarter_turn_table)

}  // namespace blockcheck
