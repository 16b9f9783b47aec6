// Reference solutions of the companion chapter on GQA, the KV cache, long-context RoPE and
// the LLaMA block: one function per exercise, named as the exercise id
// (data/exercises/gqa_long_context/<id>.json). Each computes every answer from its inputs
// through the block at 50 digits; no expected value is typed in. Conceptual true/false and
// choice answers are the facts the companion argues, explained in the exercise files.
#pragma once

#include "solutions/block/counts.hpp"
#include "solutions/block/rope.hpp"
#include "solutions/block/rope_mistakes.hpp"
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
// Mistake clockwise_rotation: the stamp turns the other way.
inline Rope<Real> stamp_rope(const Inputs& in) {
    Rope<Real> rope = fixed_angle_rope(radians(in.number("angle_degrees")));
    in.mistake_on([&](std::string_view id) { return make_plan_mistake(rope, id); });  // rope_mistakes.hpp
    return rope;
}

// Position Interpolation on a plan: positions are divided by the factor before they turn
// anything, which is what make_rope does for RopeScalingType::linear.
inline Rope<Real> interpolated(Rope<Real> rope, const Real& factor) {
    rope.position_divisor = factor;
    return rope;
}

// The frequency plan's exponent as a student may slip on it, for the plan on `base` (the base
// the plan really uses: NTK's scaled one). Mistakes exponent_without_2 (base^(-i/d)),
// integer_exponent (-2i/d in integers, 0 for every pair: every inverse frequency 1),
// last_pair_off_by_one (the last pair taken as i = d/2: 1/base).
inline Rope<Real> slipped_exponent(const Inputs& in, Rope<Real> rope, const Real& base) {
    using std::pow;
    const std::size_t pairs = rope.inverse_frequencies.size();
    const Real d(static_cast<long>(2 * pairs));
    for (std::size_t i = 0; i < pairs; ++i) {
        const Real pair(static_cast<long>(i));
        if (in.mistake("exponent_without_2")) rope.inverse_frequencies[i] = pow(base, -pair / d);
        if (in.mistake("integer_exponent")) rope.inverse_frequencies[i] = Real(1);
    }
    if (pairs > 0 && in.mistake("last_pair_off_by_one")) rope.inverse_frequencies[pairs - 1] = Real(1) / base;
    in.mistake_on([&](std::string_view id) { return make_plan_mistake(rope, id); });  // the turn's own slips
    return rope;
}

// The plain plan (pairs (2i, 2i+1)) on `base` with a scaling that leaves the base alone (none,
// linear), the exponent as the student computes it.
inline Rope<Real> plain_rope(const Inputs& in, const Real& base, std::size_t head_dim, RopeScaling<Real> scaling = {},
                             RopeLayout layout = RopeLayout::interleaved) {
    return slipped_exponent(in, make_rope(base, head_dim, scaling, layout), base);
}

// The scalings a reference applies.  Mistakes angle_not_scaled (the factor never applied),
// factor_inverted (positions multiplied by the factor: divided by 1 / s).
inline RopeScaling<Real> linear_scaling(const Inputs& in, const Real& factor) {
    if (in.mistake("angle_not_scaled")) return {};
    return {RopeScalingType::linear, in.mistake("factor_inverted") ? Real(Real(1) / factor) : factor};
}
// NTK-aware: base' = base s^(d/(d-2)).  Mistakes ntk_exponent: base' = base s, the exponent
// d/(d-2) dropped; ntk_exponent_inverted: base' = base s^((d-2)/d). The plan is then the plain
// one on that base.
inline Real ntk_scaled_base(const Inputs& in, const Real& base, const Real& factor, std::size_t head_dim) {
    using std::pow;
    if (in.mistake("angle_not_scaled")) return base;
    if (in.mistake("ntk_exponent_inverted")) {
        const Real d(static_cast<long>(head_dim));
        return base * pow(factor, (d - Real(2)) / d);
    }
    return in.mistake("ntk_exponent") ? Real(base * factor) : ntk_base(base, factor, head_dim);
}
// The NTK-aware plan: make_rope's NTK scaling, or the plain plan on the mistaken base (or with
// the mistaken exponent, on the right base).
inline Rope<Real> ntk_rope(const Inputs& in, const Real& base, const Real& factor, std::size_t head_dim) {
    const Real scaled = ntk_scaled_base(in, base, factor, head_dim);
    if (in.mistake("angle_not_scaled") || in.mistake("ntk_exponent") || in.mistake("ntk_exponent_inverted"))
        return plain_rope(in, scaled, head_dim);
    return slipped_exponent(
        in, make_rope(base, head_dim, RopeScaling<Real>{RopeScalingType::ntk, factor}, RopeLayout::interleaved), scaled);
}

// The KV cache's bytes as a reference counts them.  Mistakes kv_factor_forgotten (K alone, the
// factor 2 for K and V left out), layers_forgotten (one layer's cache).
inline Count kv_bytes(const Inputs& in, Count layers, Count kv_heads, Count head_dim, Count sequence, Count batch,
                      Count bytes_per_element) {
    const Count bytes = kv_cache_bytes(in.mistake("layers_forgotten") ? 1 : layers, kv_heads, head_dim, sequence, batch,
                                       bytes_per_element);
    return in.mistake("kv_factor_forgotten") ? bytes / 2 : bytes;
}
// How many whole sequences of `bytes` fit in `budget` bytes: floor(budget / bytes).  Mistake
// batch_rounded_up: a part of a sequence counted as one, ceil(budget / bytes).
inline Count whole_sequences(const Inputs& in, Count budget, Count bytes) {
    return in.mistake("batch_rounded_up") ? (budget + bytes - 1) / bytes : budget / bytes;
}
// Bytes in a GiB.  Mistake gib_as_gb: 10^9.
inline Count gib_bytes(const Inputs& in) { return in.mistake("gib_as_gb") ? Count(1000000000) : Count(1) << 30; }

// Two thirds of a width w, the fraction dropped: 2 w / 3.  Mistake integer_two_thirds (2 / 3 in
// integers: 0).
inline Count two_thirds(const Inputs& in, Count width) {
    return in.mistake("integer_two_thirds") ? (2 / 3) * width : 2 * width / 3;
}
// w rounded up to a multiple of m: ceil(w / m) m.  Mistake rounded_down (to the multiple below).
inline Count rounded_up(const Inputs& in, Count width, Count multiple) {
    if (in.mistake("rounded_down")) return width / multiple * multiple;
    return (width + multiple - 1) / multiple * multiple;
}
// LLaMA's FFN width, two thirds of 4 C rounded up to a multiple (llama_ffn_hidden, with the
// slips of each step).
inline Count ffn_width(const Inputs& in, Count hidden, Count multiple) {
    return rounded_up(in, two_thirds(in, 4 * hidden), multiple);
}

// A count the student printed for answer `name`, when a step is judged from it (else `computed`);
// InputError for a value that is no count.
inline Count given_count(const Inputs& in, const std::string& name, Count computed) {
    using std::floor;
    const Real n = in.given_or(name, Real(static_cast<unsigned long long>(computed)));
    if (n < 0 || floor(n) != n || n > Real("1e18")) throw InputError("the given '" + name + "' is not a count");
    return static_cast<Count>(n.convert_to<unsigned long long>());
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
