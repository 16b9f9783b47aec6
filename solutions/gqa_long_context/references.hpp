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

// (A template is generic over the scalar: Real for the answers, Taped for the tape the error
// model changes, solutions/tape.hpp.)

// The rotating stamp (30 degrees a position).
template <class S> ValuesOf<S> rotating_stamp(const Inputs& in);                 // worked example
template <class S> ValuesOf<S> stamp_relative_position(const Inputs& in);

// Long context: Position Interpolation and NTK-aware scaling.
template <class S> ValuesOf<S> position_interpolation(const Inputs& in);         // worked example
template <class S> ValuesOf<S> interpolation_every_frequency(const Inputs& in);
template <class S> ValuesOf<S> ntk_aware_scaling(const Inputs& in);              // worked example
template <class S> ValuesOf<S> ntk_vs_linear(const Inputs& in);

// GQA and the KV cache.
template <class S> ValuesOf<S> gqa_groups(const Inputs& in);                     // worked example
template <class S> ValuesOf<S> kv_cache_sizes(const Inputs& in);                 // worked example
template <class S> ValuesOf<S> kv_cache_budget(const Inputs& in);

// SwiGLU's cost and LLaMA's FFN width.
template <class S> ValuesOf<S> llama_ffn_width(const Inputs& in);                // worked example
template <class S> ValuesOf<S> llama_block_parameters(const Inputs& in);

// The LLaMA block on a tiny configuration.
template <class S> ValuesOf<S> llama_block_tiny(const Inputs& in);               // worked example
template <class S> ValuesOf<S> block_position_shift(const Inputs& in);

// The companion's Python demo: RoPE then plain softmax attention.
template <class S> ValuesOf<S> rope_attention_demo(const Inputs& in);            // worked example
template <class S> ValuesOf<S> rope_write_back_layout(const Inputs& in);

// Misconceptions and interview questions.
template <class S> ValuesOf<S> misconceptions_by_numbers(const Inputs& in);
template <class S> ValuesOf<S> interview_questions(const Inputs& in);

// Small helpers shared by the companion's references.
namespace companion {

using blockcheck::boolean;
using blockcheck::choice;
using blockcheck::count;
using blockcheck::degrees;
using blockcheck::radians;

// A positive number input (bases and factors), as scalar S.
template <class S>
S positive_number(const Inputs& in, const std::string& name) {
    if (in.number(name) <= 0) throw InputError("input '" + name + "' should be positive");
    return number_of<S>(in, name);
}

// The one-pair teaching plan turning `angle_degrees` a position.
// Mistake clockwise_rotation: the stamp turns the other way.
template <class S>
Rope<S> stamp_rope(const Inputs& in) {
    Rope<S> rope = fixed_angle_rope(radians(number_of<S>(in, "angle_degrees")));
    in.mistake_on([&](std::string_view id) { return make_plan_mistake(rope, id); });  // rope_mistakes.hpp
    return rope;
}

// Position Interpolation on a plan: positions are divided by the factor before they turn
// anything, which is what make_rope does for RopeScalingType::linear.
template <class S>
Rope<S> interpolated(Rope<S> rope, const S& factor) {
    rope.position_divisor = factor;
    return rope;
}

// The frequency plan's exponent as a student may slip on it, for the plan on `base` (the base
// the plan really uses: NTK's scaled one). Mistakes exponent_without_2 (base^(-i/d)),
// integer_exponent (-2i/d in integers, 0 for every pair: every inverse frequency 1),
// last_pair_off_by_one (the last pair taken as i = d/2: 1/base).
template <class S>
Rope<S> slipped_exponent(const Inputs& in, Rope<S> rope, const S& base) {
    using std::pow;
    const std::size_t pairs = rope.inverse_frequencies.size();
    const S d(static_cast<long>(2 * pairs));
    for (std::size_t i = 0; i < pairs; ++i) {
        const S pair(static_cast<long>(i));
        if (in.mistake("exponent_without_2")) rope.inverse_frequencies[i] = pow(base, -pair / d);
        if (in.mistake("integer_exponent")) rope.inverse_frequencies[i] = S(1);
    }
    if (pairs > 0 && in.mistake("last_pair_off_by_one")) rope.inverse_frequencies[pairs - 1] = S(1) / base;
    in.mistake_on([&](std::string_view id) { return make_plan_mistake(rope, id); });  // the turn's own slips
    return rope;
}

// The plain plan (pairs (2i, 2i+1)) on `base` with a scaling that leaves the base alone (none,
// linear), the exponent as the student computes it.
template <class S>
Rope<S> plain_rope(const Inputs& in, const S& base, std::size_t head_dim, RopeScaling<S> scaling = {},
                   RopeLayout layout = RopeLayout::interleaved) {
    return slipped_exponent(in, make_rope(base, head_dim, scaling, layout), base);
}

// The scalings a reference applies.  Mistakes angle_not_scaled (the factor never applied),
// factor_inverted (positions multiplied by the factor: divided by 1 / s).
template <class S>
RopeScaling<S> linear_scaling(const Inputs& in, const S& factor) {
    if (in.mistake("angle_not_scaled")) return {};
    return {RopeScalingType::linear, in.mistake("factor_inverted") ? S(S(1) / factor) : factor};
}
// NTK-aware: base' = base s^(d/(d-2)).  Mistakes ntk_exponent: base' = base s, the exponent
// d/(d-2) dropped; ntk_exponent_inverted: base' = base s^((d-2)/d). The plan is then the plain
// one on that base.
template <class S>
S ntk_scaled_base(const Inputs& in, const S& base, const S& factor, std::size_t head_dim) {
    using std::pow;
    if (in.mistake("angle_not_scaled")) return base;
    if (in.mistake("ntk_exponent_inverted")) {
        const S d(static_cast<long>(head_dim));
        return base * pow(factor, (d - S(2)) / d);
    }
    return in.mistake("ntk_exponent") ? S(base * factor) : ntk_base(base, factor, head_dim);
}
// The NTK-aware plan: make_rope's NTK scaling, or the plain plan on the mistaken base (or with
// the mistaken exponent, on the right base).
template <class S>
Rope<S> ntk_rope(const Inputs& in, const S& base, const S& factor, std::size_t head_dim) {
    const S scaled = ntk_scaled_base(in, base, factor, head_dim);
    if (in.mistake("angle_not_scaled") || in.mistake("ntk_exponent") || in.mistake("ntk_exponent_inverted"))
        return plain_rope(in, scaled, head_dim);
    return slipped_exponent(in, make_rope(base, head_dim, RopeScaling<S>{RopeScalingType::ntk, factor}, RopeLayout::interleaved),
                            scaled);
}

// The KV cache's bytes as a reference counts them.  Mistakes kv_factor_forgotten (K alone, the
// factor 2 for K and V left out), layers_forgotten (one layer's cache).
template <class N>
N kv_bytes(const Inputs& in, const N& layers, const N& kv_heads, const N& head_dim, const N& sequence, const N& batch,
           const N& bytes_per_element) {
    const N bytes = kv_cache_bytes<N>(in.mistake("layers_forgotten") ? N(1) : layers, kv_heads, head_dim, sequence, batch,
                                      bytes_per_element);
    return in.mistake("kv_factor_forgotten") ? whole_quotient<N>(bytes, N(2)) : bytes;
}
// How many whole sequences of `bytes` fit in `budget` bytes: floor(budget / bytes).  Mistake
// batch_rounded_up: a part of a sequence counted as one, ceil(budget / bytes).
template <class N>
N whole_sequences(const Inputs& in, const N& budget, const N& bytes) {
    return in.mistake("batch_rounded_up") ? whole_quotient<N>(budget + bytes - N(1), bytes) : whole_quotient<N>(budget, bytes);
}
// Bytes in a GiB.  Mistake gib_as_gb: 10^9.
template <class N>
N gib_bytes(const Inputs& in) {
    return in.mistake("gib_as_gb") ? N(1000000000) : N(1073741824);
}

// Two thirds of a width w, the fraction dropped: 2 w / 3.  Mistake integer_two_thirds (2 / 3 in
// integers: 0).
template <class N>
N two_thirds(const Inputs& in, const N& width) {
    return in.mistake("integer_two_thirds") ? whole_quotient<N>(N(2), N(3)) * width : whole_quotient<N>(N(2) * width, N(3));
}
// w rounded up to a multiple of m: ceil(w / m) m.  Mistake rounded_down (to the multiple below).
template <class N>
N rounded_up(const Inputs& in, const N& width, const N& multiple) {
    if (in.mistake("rounded_down")) return whole_quotient<N>(width, multiple) * multiple;
    return whole_quotient<N>(width + multiple - N(1), multiple) * multiple;
}
// LLaMA's FFN width, two thirds of 4 C rounded up to a multiple (llama_ffn_hidden, with the
// slips of each step).
template <class N>
N ffn_width(const Inputs& in, const N& hidden, const N& multiple) {
    return rounded_up(in, two_thirds(in, N(4) * hidden), multiple);
}

// A count the student printed for answer `name`, when a step is judged from it (else `computed`);
// InputError for a value that is no count. On the tape, the computed one.
template <class S>
S given_count(const Inputs& in, const std::string& name, const S& computed) {
    if constexpr (std::is_same_v<S, Real>) {
        using std::floor;
        const Real n = in.given_or(name, computed);
        if (n < 0 || floor(n) != n || n > Real("1e18")) throw InputError("the given '" + name + "' is not a count");
        return n;
    } else {
        return in.given_or(name, computed);
    }
}

// Every pair's turn for one step of position: inv_freq_i / divisor, in radians.
template <class S>
Vector<S> radians_per_position(const Rope<S>& rope) {
    Vector<S> speed(rope.inverse_frequencies.size());
    for (std::size_t i = 0; i < speed.size(); ++i) speed[i] = rope_angle(rope, i, S(1));
    return speed;
}

// Element by element a / b.
template <class S>
Vector<S> ratios(const Vector<S>& a, const Vector<S>& b) {
    Vector<S> r(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) r[i] = a[i] / b[i];
    return r;
}

}  // namespace companion
}  // namespace blockcheck
