// Exercise 25.6-4: example 25.3 with W_down = I, and why the FFN stays inside one row.
#include "solutions/ch25/references.hpp"
#include "solutions/block/ffn.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> swiglu_identity_down(const Inputs& in) {
    const Vector<S> x = vector_of<S>(in, "x");  // [C]
    const auto [w_gate, w_up] = ch25::gate_and_up(in, matrix_of<S>(in, "w_gate"), matrix_of<S>(in, "w_up"));  // [C, F] each
    Matrix<S> identity(w_up.cols, w_up.cols);   // [F, F]
    for (std::size_t i = 0; i < identity.rows; ++i) identity(i, i) = S(1);

    const Matrix<S> alone = swiglu_ffn(matrix_from_rows<S>({x}), w_gate, w_up, identity, ch25::gate_activation(in));
    // Does x's output change when another token row sits beside it?  [2, C] -> [2, C]
    const Matrix<S> with_neighbour =
        swiglu_ffn(matrix_from_rows<S>({x, ch25::shifted(x, S(1))}), w_gate, w_up, identity, ch25::gate_activation(in));
    bool mixes = false;
    for (std::size_t c = 0; c < alone.cols; ++c) mixes = mixes || alone(0, c) != with_neighbour(0, c);

    return {{"swiglu_ffn", alone.values}, {"mixes_positions", boolean_of<S>(mixes)}};
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(swiglu_identity_down)

}  // namespace blockcheck
