// Example 25.3: a two-dimensional SwiGLU FFN, every intermediate row.
#include "solutions/ch25/references.hpp"
#include "solutions/block/ffn.hpp"

namespace blockcheck {

Values swiglu_ffn_2d(const Inputs& in) {
    const Matrix<Real> x = matrix_from_rows<Real>({in.vector("x")});  // [1, C]
    const auto [w_gate, w_up] = ch25::gate_and_up(in, in.matrix("w_gate"), in.matrix("w_up"));  // [C, F] each
    const Matrix<Real> w_down = ch25::down_as_used(in, in.matrix("w_down"));  // [F, C]

    // each step from the one before (a student's own numbers, when a step is judged from them)
    const Matrix<Real> gate = in.given_or("gate", matmul(x, w_gate)), up = in.given_or("up", matmul(x, w_up));  // [1, F]
    Vector<Real> silu_gate(gate.values.size());
    for (std::size_t i = 0; i < silu_gate.size(); ++i) silu_gate[i] = gate_activation(gate.values[i], ch25::gate_activation(in));
    silu_gate = in.given_or("silu", silu_gate);
    Matrix<Real> hidden = up;  // [1, F]: SiLU(gate) ⊙ up
    for (std::size_t i = 0; i < hidden.values.size(); ++i) hidden.values[i] = silu_gate[i] * up.values[i];
    hidden = in.given_or("swiglu_hidden", hidden);
    return {
        {"gate", gate.values},
        {"up", up.values},
        {"silu", silu_gate},
        {"swiglu_hidden", hidden.values},
        {"swiglu_ffn", matmul(hidden, w_down).values},  // [1, C]
    };
}

}  // namespace blockcheck
