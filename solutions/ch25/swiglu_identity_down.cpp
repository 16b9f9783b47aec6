// Exercise 25.6-4: example 25.3 with W_down = I, and why the FFN stays inside one row.
#include "solutions/ch25/references.hpp"
#include "solutions/block/ffn.hpp"

namespace blockcheck {

Values swiglu_identity_down(const Inputs& in) {
    const Vector<Real>& x = in.vector("x");            // [C]
    const auto [w_gate, w_up] = ch25::gate_and_up(in, in.matrix("w_gate"), in.matrix("w_up"));  // [C, F] each
    Matrix<Real> identity(w_up.cols, w_up.cols);       // [F, F]
    for (std::size_t i = 0; i < identity.rows; ++i) identity(i, i) = Real(1);

    const Matrix<Real> alone = swiglu_ffn(matrix_from_rows<Real>({x}), w_gate, w_up, identity, ch25::gate_activation(in));
    // Does x's output change when another token row sits beside it?  [2, C] -> [2, C]
    const Matrix<Real> with_neighbour =
        swiglu_ffn(matrix_from_rows<Real>({x, ch25::shifted(x, Real(1))}), w_gate, w_up, identity, ch25::gate_activation(in));
    bool mixes = false;
    for (std::size_t c = 0; c < alone.cols; ++c) mixes = mixes || alone(0, c) != with_neighbour(0, c);

    return {{"swiglu_ffn", alone.values}, {"mixes_positions", ch25::boolean(mixes)}};
}

}  // namespace blockcheck
