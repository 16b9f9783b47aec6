// Reference solutions of chapter 25: one function per exercise, named as the exercise id
// (data/exercises/ch25/<id>.json). Each computes every answer from its inputs through the
// block at 50 digits; no expected value is typed in.
#pragma once

#include "solutions/block/counts.hpp"
#include "solutions/block/norms.hpp"
#include "solutions/exercise.hpp"

#include <utility>

namespace blockcheck {

// Worked examples.
Values rope_quarter_turn_table(const Inputs& in);   // table 25.1
Values rms_norm_vs_layer_norm(const Inputs& in);    // example 25.2
Values swiglu_ffn_2d(const Inputs& in);             // example 25.3
Values ffn_parameter_counts(const Inputs& in);      // table 25.2

// Exercises 25.6-1 .. 25.6-6.
Values rope_later_positions(const Inputs& in);
Values rms_norm_zero_row(const Inputs& in);
Values rms_norm_shift(const Inputs& in);
Values swiglu_identity_down(const Inputs& in);
Values swiglu_matched_budget(const Inputs& in);
Values max_sequence_slots(const Inputs& in);

// Small helpers shared by the chapter's references.
namespace ch25 {

using blockcheck::boolean;
using blockcheck::choice;
using blockcheck::count;
using blockcheck::radians;

// mean_j x_j^2: the quantity under RMSNorm's root (exact for decimal inputs).
inline Real mean_square(const Vector<Real>& x) {
    Real sum(0);
    for (const Real& v : x) sum += v * v;
    return sum / Real(static_cast<long>(x.size()));
}

// x + shift on every coordinate.
inline Vector<Real> shifted(Vector<Real> x, const Real& shift) {
    for (Real& v : x) v += shift;
    return x;
}

// RMSNorm / LayerNorm with unit gains, no bias and epsilon 0, as the chapter's hand examples;
// a zero denominator gives `undefined`.
inline Value rms_norm_unit(const Vector<Real>& x) {
    try {
        return rms_norm<Real>(x, Vector<Real>(x.size(), Real(1)), Real(0));
    } catch (const UndefinedNorm&) {
        return Undefined{};
    }
}
inline Value layer_norm_unit(const Vector<Real>& x) {
    try {
        return layer_norm<Real>(x, Vector<Real>(x.size(), Real(1)), Vector<Real>(x.size(), Real(0)), Real(0));
    } catch (const UndefinedNorm&) {
        return Undefined{};
    }
}

}  // namespace ch25
}  // namespace blockcheck
