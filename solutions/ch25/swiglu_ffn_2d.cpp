// Example 25.3: a two-dimensional SwiGLU FFN, every intermediate row.
#include "solutions/ch25/references.hpp"
#include "solutions/block/ffn.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> swiglu_ffn_2d(const Inputs& in) {
    const Matrix<S> x = matrix_from_rows<S>({vector_of<S>(in, "x")});  // [1, C]
    const auto [w_gate, w_up] = ch25::gate_and_up(in, matrix_of<S>(in, "w_gate"), matrix_of<S>(in, "w_up"));  // [C, F] each
    const Matrix<S> w_down = ch25::down_as_used(in, matrix_of<S>(in, "w_down"));  // [F, C]

    // each step from the one before (a student's own numbers, when a step is judged from them)
    const Matrix<S> gate = in.given_or("gate", matmul(x, w_gate)), up = in.given_or("up", matmul(x, w_up));  // [1, F]
    Vector<S> silu_gate(gate.values.size());
    for (std::size_t i = 0; i < silu_gate.size(); ++i) silu_gate[i] = gate_activation(gate.values[i], ch25::gate_activation(in));
    silu_gate = in.given_or("silu", silu_gate);
    Matrix<S> hidden = up;  // [1, F]: SiLU(gate) ⊙ up
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
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(swiglu_ffn_2d)

}  // namespace blockcheck
