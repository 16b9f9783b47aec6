// Position-wise feed-forward networks: SwiGLU (chapter 25.3) and the ReLU FFN it replaces.
#pragma once

#include "real.hpp"
#include "tensor.hpp"

#include <cmath>
#include <string_view>

namespace blockcheck {

// SiLU(a) = a / (1 + e^-a), Swish with its coefficient fixed at one.
template <class T>
T silu(const T& a) {
    using std::exp;
    return a / (T(1) + exp(-a));
}

template <class T>
T relu(const T& a) {
    return a > 0 ? a : T(0);
}

// GELU(a) = a Phi(a) = a (1 + erf(a / sqrt 2)) / 2, the exact form (torch.nn.functional.gelu).
template <class T>
T gelu(const T& a) {
    using std::erf;
    using std::sqrt;
    return a * (T(1) + erf(a / sqrt(T(2)))) / T(2);
}

// GELU's tanh form, GeGLU's in Gemma (gelu_pytorch_tanh):
// a (1 + tanh(sqrt(2/pi) (a + 0.044715 a^3))) / 2.
template <class T>
T gelu_tanh(const T& a) {
    using std::sqrt;
    using std::tanh;
    static const T root_two_over_pi = sqrt(T(2) / pi<T>()), kappa = parse_real<T>("0.044715");
    return a * (T(1) + tanh(root_two_over_pi * (a + kappa * a * a * a))) / T(2);
}

// The gate's activation: SiLU in SwiGLU, GELU's tanh form in Gemma's GeGLU; sigmoid and ReLU are the classic slips the exercises
// diagnose (sigmoid(a) = 1 / (1 + e^-a) is SiLU's pass ratio, not SiLU), as is SiLU with the
// exponent's sign lost (a / (1 + e^a)); GELU a port's (mistake gelu_for_silu: GeGLU's activation
// on a SwiGLU model; gelu_exact_for_tanh: the exact form where GeGLU has the tanh one).
enum class GateActivation { silu, sigmoid, relu, gelu, silu_exponent_sign, gelu_tanh };

template <class T>
T gate_activation(const T& a, GateActivation activation) {
    using std::exp;
    switch (activation) {
        case GateActivation::sigmoid: return T(1) / (T(1) + exp(-a));
        case GateActivation::relu: return relu(a);
        case GateActivation::gelu: return gelu(a);
        case GateActivation::silu_exponent_sign: return a / (T(1) + exp(a));
        case GateActivation::gelu_tanh: return gelu_tanh(a);
        default: return silu(a);
    }
}

// The gate activation's slips by catalogue id (sigmoid_for_silu, relu_for_silu, gelu_for_silu,
// silu_exponent_sign):
// sets `activation` and returns true, false for another id. Every FFN, the block's and the
// exercises' own, takes its activation through this switch.
inline bool make_activation_mistake(GateActivation& activation, std::string_view id) {
    if (id == "sigmoid_for_silu") activation = GateActivation::sigmoid;
    else if (id == "relu_for_silu") activation = GateActivation::relu;
    else if (id == "gelu_for_silu") activation = GateActivation::gelu;
    else if (id == "silu_exponent_sign") activation = GateActivation::silu_exponent_sign;
    else return false;
    return true;
}

// SiLU(x W_g) ⊙ (x W_u), element by element.  gate, up: [T, F] -> [T, F]
template <class T>
Matrix<T> swiglu_hidden(const Matrix<T>& gate, const Matrix<T>& up, GateActivation activation = GateActivation::silu) {
    Matrix<T> h(gate.rows, gate.cols);
    for (std::size_t i = 0; i < h.values.size(); ++i) h.values[i] = gate_activation(gate.values[i], activation) * up.values[i];
    return h;
}

// FFN(x) = (SiLU(x W_g) ⊙ x W_u) W_d.  x: [T, C], w_gate, w_up: [C, F], w_down: [F, C] -> [T, C]
template <class T>
Matrix<T> swiglu_ffn(const Matrix<T>& x, const Matrix<T>& w_gate, const Matrix<T>& w_up, const Matrix<T>& w_down,
                     GateActivation activation = GateActivation::silu) {
    return matmul(swiglu_hidden(matmul(x, w_gate), matmul(x, w_up), activation), w_down);
}

// FFN(x) = ReLU(x W_1) W_2.  x: [T, C], w_1: [C, F], w_2: [F, C] -> [T, C]
template <class T>
Matrix<T> relu_ffn(const Matrix<T>& x, const Matrix<T>& w_1, const Matrix<T>& w_2) {
    Matrix<T> h = matmul(x, w_1);
    for (T& v : h.values) v = relu(v);
    return matmul(h, w_2);
}

}  // namespace blockcheck
