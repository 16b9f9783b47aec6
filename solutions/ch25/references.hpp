// Reference solutions of chapter 25: one function per exercise, named as the exercise id
// (data/exercises/ch25/<id>.json). Each computes every answer from its inputs through the
// block at 50 digits; no expected value is typed in.
#pragma once

#include "solutions/block/counts.hpp"
#include "solutions/block/ffn.hpp"
#include "solutions/block/norms.hpp"
#include "solutions/block/rope.hpp"
#include "solutions/block/rope_mistakes.hpp"
#include "solutions/exercise.hpp"

#include <utility>

namespace blockcheck {

// Worked examples. (A template is generic over the scalar: Real for the answers, Taped for the
// tape the error model changes, solutions/tape.hpp.)
template <class S> ValuesOf<S> rope_quarter_turn_table(const Inputs& in);   // table 25.1
template <class S> ValuesOf<S> rms_norm_vs_layer_norm(const Inputs& in);    // example 25.2
template <class S> ValuesOf<S> swiglu_ffn_2d(const Inputs& in);             // example 25.3
template <class S> ValuesOf<S> ffn_parameter_counts(const Inputs& in);      // table 25.2

// Exercises 25.6-1 .. 25.6-6.
template <class S> ValuesOf<S> rope_later_positions(const Inputs& in);
template <class S> ValuesOf<S> rms_norm_zero_row(const Inputs& in);
template <class S> ValuesOf<S> rms_norm_shift(const Inputs& in);
template <class S> ValuesOf<S> swiglu_identity_down(const Inputs& in);
template <class S> ValuesOf<S> swiglu_matched_budget(const Inputs& in);
template <class S> ValuesOf<S> max_sequence_slots(const Inputs& in);

// Small helpers shared by the chapter's references.
namespace ch25 {

using blockcheck::boolean;
using blockcheck::choice;
using blockcheck::count;
using blockcheck::radians;

// mean_j x_j^2: the quantity under RMSNorm's root (exact for decimal inputs).
// Mistake sum_not_mean: sum_j x_j^2.
template <class S>
S mean_square(const Inputs& in, const Vector<S>& x) {
    S sum(0);
    for (const S& v : x) sum += v * v;
    return in.mistake("sum_not_mean") ? sum : sum / S(static_cast<long>(x.size()));
}

// The epsilon under the chapter's roots: 0, as the hand examples ask.  Mistake eps_added: the
// usual library default, 1e-5 (torch.nn.LayerNorm's), typed in out of habit.
template <class S>
S unit_norm_eps(const Inputs& in) {
    return in.mistake("eps_added") ? S("1e-5") : S(0);
}

// rms(x) = sqrt(mean_j x_j^2).  Mistake sum_not_mean: sqrt(sum_j x_j^2) = rms(x) sqrt(C).
template <class S>
S root_mean_square(const Inputs& in, const Vector<S>& x) {
    using std::sqrt;
    const S rms = blockcheck::root_mean_square<S>(x);
    if (const S eps = unit_norm_eps<S>(in); eps != 0) return sqrt(rms * rms + eps);  // Mistake eps_added
    if (in.mistake("root_omitted")) return rms * rms;  // Mistake root_omitted: the mean square itself
    return in.mistake("sum_not_mean") ? rms * sqrt(S(static_cast<long>(x.size()))) : rms;
}

// x + shift on every coordinate.
template <class S>
Vector<S> shifted(Vector<S> x, const S& shift) {
    for (S& v : x) v += shift;
    return x;
}

template <class S>
ValueOf<S> layer_norm_unit(const Vector<S>& x);

// RMSNorm / LayerNorm with unit gains, no bias and epsilon 0, as the chapter's hand examples;
// a zero denominator gives `undefined`. Mistakes: mean_subtracted (LayerNorm where RMSNorm is
// asked); sum_not_mean (x / sqrt(sum_j x_j^2): the same RMSNorm with gains 1/sqrt(C));
// root_omitted (x / mean_j x_j^2); eps_added (unit_norm_eps).
template <class S>
ValueOf<S> rms_norm_unit(const Inputs& in, const Vector<S>& x) {
    using std::sqrt;
    if (in.mistake("mean_subtracted")) return layer_norm_unit(x);
    if (in.mistake("root_omitted")) {  // x / mean_j x_j^2: the square root left out
        const S ms = mean_square(in, x);
        if (ms == 0) return Undefined{};
        Vector<S> out = x;
        for (S& v : out) v /= ms;
        return out;
    }
    const S gain = in.mistake("sum_not_mean") ? S(1) / sqrt(S(static_cast<long>(x.size()))) : S(1);
    try {
        return rms_norm<S>(x, Vector<S>(x.size(), gain), unit_norm_eps<S>(in));
    } catch (const UndefinedNorm&) {
        return Undefined{};
    }
}
template <class S>
ValueOf<S> layer_norm_unit(const Vector<S>& x) {
    try {
        return layer_norm<S>(x, Vector<S>(x.size(), S(1)), Vector<S>(x.size(), S(0)), S(0));
    } catch (const UndefinedNorm&) {
        return Undefined{};
    }
}
// LayerNorm as a reference computes it: (x - mean) / sqrt(mean_j (x_j - mean)^2), unit gains,
// no bias, epsilon 0. Mistakes, each the slip of the same name in RMSNorm made here: unbiased_variance
// (the variance divided by n - 1: LayerNorm with gains sqrt((n - 1) / n)); sum_not_mean (the squared
// deviations summed: gains 1 / sqrt(n)); root_omitted (divided by the variance itself);
// mean_not_subtracted (the row normalised as it is: RMSNorm where LayerNorm is asked); eps_added.
template <class S>
ValueOf<S> layer_norm_unit(const Inputs& in, const Vector<S>& x) {
    using std::sqrt;
    const S n(static_cast<long>(x.size()));
    if (in.mistake("mean_not_subtracted")) return rms_norm_unit(in, x);
    if (in.mistake("root_omitted")) {
        S mean(0), variance(0);
        for (const S& v : x) mean += v / n;
        for (const S& v : x) variance += (v - mean) * (v - mean) / n;
        if (variance == 0) return Undefined{};
        Vector<S> out = x;
        for (S& v : out) v = (v - mean) / variance;
        return out;
    }
    S gain(1);
    if (in.mistake("unbiased_variance") && x.size() >= 2) gain = sqrt((n - S(1)) / n);
    else if (in.mistake("sum_not_mean")) gain = S(1) / sqrt(n);
    try {
        return layer_norm<S>(x, Vector<S>(x.size(), gain), Vector<S>(x.size(), S(0)), unit_norm_eps<S>(in));
    } catch (const UndefinedNorm&) {
        return Undefined{};
    }
}

// The teaching plan turning `angle_degrees` counter-clockwise a position, through the turn's
// switch (clockwise_rotation, position_off_by_one: rope_mistakes.hpp).
template <class S>
Rope<S> fixed_angle_rope(const Inputs& in, const S& angle_degrees) {
    Rope<S> rope = blockcheck::fixed_angle_rope(radians(angle_degrees));
    in.mistake_on([&](std::string_view id) { return make_plan_mistake(rope, id); });
    return rope;
}

// The gate activation a reference uses, through the activation's switch (sigmoid, ReLU or GELU for SiLU).
inline GateActivation gate_activation(const Inputs& in) {
    GateActivation activation = GateActivation::silu;
    in.mistake_on([&](std::string_view id) { return make_activation_mistake(activation, id); });
    return activation;
}

// The gate and up weights as the FFN uses them.  Mistakes gate_up_swapped (W_u gates, W_g is
// multiplied in), transposed_weights (W^T where W is meant; only square weights fit).
template <class S>
std::pair<Matrix<S>, Matrix<S>> gate_and_up(const Inputs& in, const Matrix<S>& w_gate, const Matrix<S>& w_up) {
    if (in.mistake("gate_up_swapped")) return {w_up, w_gate};
    if (in.mistake("transposed_weights")) {
        if (w_gate.rows != w_gate.cols) throw InputError("transposed weights do not fit non-square matrices");
        return {transpose(w_gate), transpose(w_up)};
    }
    return {w_gate, w_up};
}

// W_down as the FFN uses it.  Mistake transposed_weights: W_down^T as well (square only).
template <class S>
Matrix<S> down_as_used(const Inputs& in, const Matrix<S>& w_down) {
    if (!in.mistake("transposed_weights")) return w_down;
    if (w_down.rows != w_down.cols) throw InputError("transposed weights do not fit non-square matrices");
    return transpose(w_down);
}

// FFN matrix parameters as a reference counts them. Mistakes: bias_counted (a bias on every
// matrix's output: F for each of up and gate, C for down), matrix_missing (one matrix too few:
// SwiGLU counted with two, as a ReLU FFN, and the ReLU FFN with one),
// norm_gains_counted (the C gains of the norm before the FFN counted with it).
template <class N>
N relu_ffn_count(const Inputs& in, const N& hidden, const N& ffn_hidden) {
    if (in.mistake("matrix_missing")) return hidden * ffn_hidden;
    if (in.mistake("norm_gains_counted")) return relu_ffn_parameters<N>(hidden, ffn_hidden) + hidden;
    const N relu = relu_ffn_parameters<N>(hidden, ffn_hidden);
    return in.mistake("bias_counted") ? N(relu + ffn_hidden + hidden) : relu;
}
template <class N>
N swiglu_ffn_count(const Inputs& in, const N& hidden, const N& ffn_hidden) {
    if (in.mistake("matrix_missing")) return relu_ffn_parameters<N>(hidden, ffn_hidden);
    if (in.mistake("matrix_counted_twice")) return swiglu_ffn_parameters<N>(hidden, ffn_hidden) + hidden * ffn_hidden;
    if (in.mistake("norm_gains_counted")) return swiglu_ffn_parameters<N>(hidden, ffn_hidden) + hidden;
    const N swiglu = swiglu_ffn_parameters<N>(hidden, ffn_hidden);
    return in.mistake("bias_counted") ? N(swiglu + N(2) * ffn_hidden + hidden) : swiglu;
}

// The SwiGLU width spending a ReLU FFN's matrix budget, 3 C F' = 2 C F.  Mistakes
// relu_width_for_swiglu (the ReLU width kept, F' = F), integer_two_thirds ((2 / 3) F in
// integers: 0), two_thirds_inverted (F' = 3 F / 2, the budget equation solved upside down).
template <class N>
N matched_swiglu_width(const Inputs& in, const N& relu_ffn_hidden) {
    if (in.mistake("relu_width_for_swiglu")) return relu_ffn_hidden;
    if (in.mistake("two_thirds_inverted")) return whole_quotient<N>(N(3) * relu_ffn_hidden, N(2));
    if (in.mistake("integer_two_thirds")) return whole_quotient<N>(N(2), N(3)) * relu_ffn_hidden;
    return swiglu_width_matching_relu<N>(relu_ffn_hidden);
}

// How far the key at position n turns beyond the query at m, in steps: n - m.  Mistake
// difference_reversed: m - n.
template <class S>
S relative_steps(const Inputs& in, const S& query_position, const S& key_position) {
    return in.mistake("difference_reversed") ? S(query_position - key_position) : S(key_position - query_position);
}

}  // namespace ch25
}  // namespace blockcheck
