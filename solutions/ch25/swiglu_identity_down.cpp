// Exercise 25.6-4: example 25.3 with W_down = I, and why the FFN stays inside one row.
#include "solutions/ch25/references.hpp"
#include "solutions/block/ffn.hpp"

namespace blockcheck {

Values swiglu_identity_down(const Inputs& in) {
    const Vector<Real>& x = in.vector("x");            // [C]
    const Matrix<Real>& w_gate = in.matrix("w_gate");  // [C, F]
    const Matrix<Real>& w_up = in.matrix("w_up");      // [C, F]
    Matrix<Real> identity(w_up.cols, w_up.cols);       // [F, F]
    for (std::size_t i = 0; i < identity.rows; ++i) identity(i, i) = Real(1);

    const Matrix<Real> alone = swiglu_ffn(matrix_from_rows<Real>({x}), w_gate, w_up, identity);
    // Does x's output change when another token row sits beside it?  [2, C] -> [2, C]
    const Matrix<Real> with_neighbour =
        swiglu_ffn(matrix_from_rows<Real>({x, ch25::shifted(x, Real(1))}), w_gate, w_up, identity);
    bool mixes = false;
    for (std::size_t c = 0; c < alone.cols; ++c) mixes = mixes || alone(0, c) != with_neighbour(0, c);

    return {{"swiglu_ffn", alone.values}, {"mixes_positions", ch25::boolean(mixes)}};
}

}  // namespace blockcheck
