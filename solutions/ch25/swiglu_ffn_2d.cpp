// Example 25.3: a two-dimensional SwiGLU FFN, every intermediate row.
#include "solutions/ch25/references.hpp"
#include "solutions/block/ffn.hpp"

namespace blockcheck {

Values swiglu_ffn_2d(const Inputs& in) {
    const Matrix<Real> x = matrix_from_rows<Real>({in.vector("x")});  // [1, C]
    const auto [w_gate, w_up] = ch25::gate_and_up(in, in.matrix("w_gate"), in.matrix("w_up"));  // [C, F] each
    const Matrix<Real> w_down = ch25::down_as_used(in, in.matrix("w_down"));  // [F, C]

    const Matrix<Real> gate = matmul(x, w_gate), up = matmul(x, w_up);  // [1, F]
    Vector<Real> silu_gate(gate.values.size());
    for (std::size_t i = 0; i < silu_gate.size(); ++i) silu_gate[i] = gate_activation(gate.values[i], ch25::gate_activation(in));
    const Matrix<Real> hidden = swiglu_hidden(gate, up, ch25::gate_activation(in));  // [1, F]
    return {
        {"gate", gate.values},
        {"up", up.values},
        {"silu", silu_gate},
        {"swiglu_hidden", hidden.values},
        {"swiglu_ffn", swiglu_ffn(x, w_gate, w_up, w_down, ch25::gate_activation(in)).values},  // [1, C]
    };
}

}  // namespace blockcheck
