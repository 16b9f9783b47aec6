// Reference solutions of the companion chapter on GQA, the KV cache, long-context RoPE and
// the LLaMA block: one function per exercise, named as the exercise id
// (data/exercises/gqa_long_context/<id>.json). Each computes every answer from its inputs
// through the block at 50 digits; no expected value is typed in. Conceptual true/false and
// choice answers are the facts the companion argues, explained in the exercise files.
#pragma once

#include "solutions/block/counts.hpp"
#include "solutions/block/rope.hpp"
#include "solutions/exercise.hpp"

#include <utility>

namespace blockcheck {

// The rotating stamp (30 degrees a position).
Values rotating_stamp(const Inputs& in);                 // worked example
Values stamp_relative_position(const Inputs& in);

// Long context: Position Interpolation and NTK-aware scaling.
Values position_interpolation(const Inputs& in);         // worked example
Values interpolation_every_frequency(const Inputs& in);
Values ntk_aware_scaling(const Inputs& in);              // worked example
Values ntk_vs_linear(const Inputs& in);

// GQA and the KV cache.
Values gqa_groups(const Inputs& in);                     // worked example
Values kv_cache_sizes(const Inputs& in);                 // worked example
Values kv_cache_budget(const Inputs& in);

// SwiGLU's cost and LLaMA's FFN width.
Values llama_ffn_width(const Inputs& in);                // worked example
Values llama_block_parameters(const Inputs& in);

// The LLaMA block on a tiny configuration.
Values llama_block_tiny(const Inputs& in);               // worked example
Values block_position_shift(const Inputs& in);

// The companion's Python demo: RoPE then plain softmax attention.
Values rope_attention_demo(const Inputs& in);            // worked example
Values rope_write_back_layout(const Inputs& in);

// Misconceptions and interview questions.
Values misconceptions_by_numbers(const Inputs& in);
Values interview_questions(const Inputs& in);

// Small helpers shared by the companion's references.
namespace companion {

using blockcheck::boolean;
using blockcheck::choice;
using blockcheck::count;
using blockcheck::degrees;
using blockcheck::radians;

// A positive number input (bases and factors).
inline const Real& positive_number(const Inputs& in, const std::string& name) {
    const Real& x = in.number(name);
    if (x <= 0) throw InputError("input '" + name + "' should be positive");
    return x;
}

// The one-pair teaching plan turning `angle_degrees` a position.
inline Rope<Real> stamp_rope(const Inputs& in) { return fixed_angle_rope(radians(in.number("angle_degrees"))); }

// Position Interpolation on a plan: positions are divided by the factor before they turn
// anything, which is what make_rope does for RopeScalingType::linear.
inline Rope<Real> interpolated(Rope<Real> rope, const Real& factor) {
    rope.position_divisor = factor;
    return rope;
}

// The scalings a reference applies.  Mistake angle_not_scaled: the factor never applied.
inline RopeScaling<Real> linear_scaling(const Inputs& in, const Real& factor) {
    if (in.mistake("angle_not_scaled")) return {};
    return {RopeScalingType::linear, factor};
}
// NTK-aware: base' = base s^(d/(d-2)).  Mistake ntk_exponent: base' = base s, the exponent
// d/(d-2) dropped; the plan is then the plain one on that base.
inline Real ntk_scaled_base(const Inputs& in, const Real& base, const Real& factor, std::size_t head_dim) {
    if (in.mistake("angle_not_scaled")) return base;
    return in.mistake("ntk_exponent") ? Real(base * factor) : ntk_base(base, factor, head_dim);
}
// The NTK-aware plan: make_rope's NTK scaling, or the plain plan on the mistaken base.
inline Rope<Real> ntk_rope(const Inputs& in, const Real& base, const Real& factor, std::size_t head_dim) {
    const Real scaled = ntk_scaled_base(in, base, factor, head_dim);
    if (in.mistake("angle_not_scaled") || in.mistake("ntk_exponent"))
        return make_rope(scaled, head_dim, RopeScaling<Real>{}, RopeLayout::interleaved);
    return make_rope(base, head_dim, RopeScaling<Real>{RopeScalingType::ntk, factor}, RopeLayout::interleaved);
}

// Every pair's turn for one step of position: inv_freq_i / divisor, in radians.
inline Vector<Real> radians_per_position(const Rope<Real>& rope) {
    Vector<Real> speed(rope.inverse_frequencies.size());
    for (std::size_t i = 0; i < speed.size(); ++i) speed[i] = rope_angle(rope, i, Real(1));
    return speed;
}

// Element by element a / b.
inline Vector<Real> ratios(const Vector<Real>& a, const Vector<Real>& b) {
    Vector<Real> r(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) r[i] = a[i] / b[i];
    return r;
}

}  // namespace companion
}  // namespace blockcheck
