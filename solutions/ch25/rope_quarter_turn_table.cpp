// Table 25.1: turn the query and the key to their own positions, then compare them.
#include "solutions/ch25/references.hpp"
#include "solutions/block/rope.hpp"

namespace blockcheck {

Values rope_quarter_turn_table(const Inputs& in) {
    const Vector<Real>& query = pair_input(in, "query");  // [2]
    const Vector<Real>& key = pair_input(in, "key");      // [2]
    const Vector<Real>& query_positions = in.vector("query_positions");
    const Vector<Real>& key_positions = in.vector("key_positions");
    if (query_positions.size() != key_positions.size())
        throw InputError("inputs 'query_positions' and 'key_positions' should have the same length");

    const Rope<Real> rope = ch25::fixed_angle_rope(in, in.number("angle_degrees"));
    const std::size_t rows = query_positions.size();
    Matrix<Real> rope_query(rows, 2), rope_key(rows, 2);  // one row per table row
    Vector<Real> dots(rows);
    for (std::size_t r = 0; r < rows; ++r) {
        Vector<Real> q = rope_rotate(query, rope, query_positions[r]);
        Vector<Real> k = rope_rotate(key, rope, key_positions[r]);
        std::copy(q.begin(), q.end(), rope_query.row(r).begin());
        std::copy(k.begin(), k.end(), rope_key.row(r).begin());
    }
    // the dots from the turned rows (the student's own, when a step is judged from them)
    rope_query = in.given_or("rope_query", rope_query);
    rope_key = in.given_or("rope_key", rope_key);
    for (std::size_t r = 0; r < rows; ++r) {
        const Vector<Real> q(rope_query.row(r).begin(), rope_query.row(r).end());
        const Vector<Real> k(rope_key.row(r).begin(), rope_key.row(r).end());
        // unscaled: no 1/sqrt(d), no softmax.  Mistake dot_before_rotation: the arrows not yet turned.
        dots[r] = in.mistake("dot_before_rotation") ? dot<Real>(query, key) : dot<Real>(q, k);
    }
    return {{"rope_query", rope_query}, {"rope_key", rope_key}, {"dot", dots}};
}

}  // namespace blockcheck
