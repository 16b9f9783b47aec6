// Rotary position embeddings (chapter 25.1): each coordinate pair of a query or key head
// turns by an angle that grows with the token's position.
#pragma once

#include "real.hpp"
#include "tensor.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace blockcheck {

// Which coordinates form pair i of a head of width d.
enum class RopeLayout {
    interleaved,  // (2i, 2i+1): RoFormer, Meta's LLaMA code, llama2.c, ggml NORMAL
    half,         // (i, i + d/2): Hugging Face rotate_half, GPT-NeoX, ggml NEOX
};

enum class RopeScalingType {
    none,
    linear,    // Position Interpolation: positions divided by s
    ntk,       // static NTK-aware: base theta * s^(d/(d-2))
    dynamic,   // Hugging Face "dynamic": NTK-aware base grown with the sequence length
    yarn,      // YaRN: per-pair ramp between interpolation and extrapolation, scaled cos/sin
    longrope,  // LongRoPE / Phi-3: per-pair divisors, short or long list by sequence length
    llama3,    // Llama 3.1: low frequencies divided by s, high ones kept, a smooth band between
};

// Porting slips of RoPE scaling, made on purpose only to diagnose them (ids and catalogue
// entries: solutions/block/rope_mistakes.hpp, data/mistakes.json); the chapter's RoPE keeps none.
enum class RopeScalingMistake {
    none,
    not_applied,                 // rope_scaling read but never applied: the unscaled plan
    attention_factor_missing,    // YaRN / LongRoPE: cos and sin without the attention factor
    attention_factor_twice,      // the factor applied again to q and k: cos and sin carry its square
    attention_factor_on_scores,  // cos and sin right, the scores multiplied by the factor once more
    llama3_band_skipped,         // Llama 3: the band between the two wavelengths left unscaled
    dynamic_at_longest_context,  // dynamic NTK at the longest context s L0, not the sequence length
    dynamic_unclamped,           // dynamic NTK at the sequence length even below L0
};

// A scaling as Hugging Face's config writes it (rope_scaling); unused fields keep their defaults.
template <class T>
struct RopeScaling {
    RopeScalingType type = RopeScalingType::none;
    T factor = T(1);                  // s: how many times the trained context is stretched
    std::size_t original_context = 0; // L0: original_max_position_embeddings (dynamic, yarn, longrope, llama3)
    T low_freq_factor = T(1);         // llama3: wavelengths above L0 / low_freq_factor are divided by s
    T high_freq_factor = T(4);        // llama3: wavelengths below L0 / high_freq_factor are kept
    T beta_fast = T(32);              // yarn: pairs turning more than beta_fast times over L0 are kept
    T beta_slow = T(1);               // yarn: pairs turning fewer than beta_slow times are divided by s
    bool truncate = true;             // yarn: round the ramp's ends outwards (floor, ceil)
    std::optional<T> attention_factor;  // yarn, longrope: multiplies cos and sin; default from s
    T mscale = T(0), mscale_all_dim = T(0);  // yarn (DeepSeek): attention factor from two mscales
    Vector<T> long_factor, short_factor;     // longrope: per-pair divisors [head_dim / 2]
    RopeScalingMistake mistake = RopeScalingMistake::none;
};

// The frequency plan shared by every head: pair i turns inverse_frequencies[i] radians per
// (scaled) position, and its cosine and sine are multiplied by attention_factor.
template <class T>
struct Rope {
    Vector<T> inverse_frequencies;  // [head_dim / 2]
    T position_divisor = T(1);      // Position Interpolation divides positions by s
    RopeLayout layout = RopeLayout::interleaved;
    T attention_factor = T(1);      // YaRN and LongRoPE scale cos and sin (so scores by its square)
    T score_factor = T(1);          // multiplies the scores: 1 but for the mistake attention_factor_on_scores
    // Two slips of the turn itself, made only to diagnose them (rope_mistakes.hpp):
    T position_offset = T(0);       // 1: positions counted from 1 (position_off_by_one)
    bool clockwise = false;         // true: the sine's sign flipped, the turn clockwise (clockwise_rotation)
    // Coordinates per head in the rows turned (0: head_dim(), every coordinate turns); wider, only
    // each head's first head_dim() turn (partial rotary, Phi-3's partial_rotary_factor).
    std::size_t head_stride = 0;

    std::size_t head_dim() const { return 2 * inverse_frequencies.size(); }
};

// inv_freq_i = base^(-2i/d), i = 0 .. d/2-1: pair 0 turns fastest, the last pair slowest.
template <class T>
Vector<T> inverse_frequencies(const T& base, std::size_t head_dim) {
    using std::pow;
    Vector<T> inv(head_dim / 2);
    for (std::size_t i = 0; i < inv.size(); ++i)
        inv[i] = pow(base, -T(static_cast<long>(2 * i)) / T(static_cast<long>(head_dim)));
    return inv;
}

// NTK-aware scaling: base' = base * s^(d/(d-2)), so pair 0 keeps its speed and the last
// pair slows down by exactly s.
template <class T>
T ntk_base(const T& base, const T& factor, std::size_t head_dim) {
    using std::pow;
    const T d(static_cast<long>(head_dim));
    return base * pow(factor, d / (d - T(2)));
}

// Hugging Face's dynamic NTK at sequence length L: the static NTK base with
// s' = s L / L0 - (s - 1), where L is raised to L0 when shorter (so s' = 1: no scaling).
template <class T>
T dynamic_ntk_factor(const T& factor, std::size_t original_context, std::size_t sequence_length) {
    const T length(static_cast<long>(std::max(sequence_length, original_context)));
    return factor * length / T(static_cast<long>(original_context)) - (factor - T(1));
}

// The s' that dynamic NTK uses at sequence length L, or the one a porting slip uses instead: at
// the longest context s L0 whatever L is (s' = s^2 - s + 1), or at L even below L0 (s' < 1).
template <class T>
T dynamic_ntk_factor(const RopeScaling<T>& s, std::size_t sequence_length) {
    const T original(static_cast<long>(s.original_context));
    if (s.mistake == RopeScalingMistake::dynamic_at_longest_context) return s.factor * s.factor - (s.factor - T(1));
    if (s.mistake == RopeScalingMistake::dynamic_unclamped)
        return s.factor * T(static_cast<long>(sequence_length)) / original - (s.factor - T(1));
    return dynamic_ntk_factor(s.factor, s.original_context, sequence_length);
}

// YaRN: the (fractional) pair index that turns `rotations` full turns over L0 positions:
// d ln(L0 / (2 pi rotations)) / (2 ln base).
template <class T>
T yarn_correction_dim(const T& rotations, std::size_t head_dim, const T& base, std::size_t original_context) {
    using std::log;
    const T d(static_cast<long>(head_dim)), context(static_cast<long>(original_context));
    return d * log(context / (rotations * T(2) * pi<T>())) / (T(2) * log(base));
}

// YaRN's ramp over pairs: 0 up to `low` (kept), 1 from `high` on (interpolated), linear between.
template <class T>
T yarn_ramp(std::size_t pair, const T& low, T high) {
    if (low == high) high += parse_real<T>("0.001");
    const T x = (T(static_cast<long>(pair)) - low) / (high - low);
    return std::clamp(x, T(0), T(1));
}

// mscale(s) = 0.1 m ln(s) + 1 for s > 1, else 1 (YaRN's attention temperature).
template <class T>
T yarn_mscale(const T& factor, const T& m) {
    using std::log;
    return factor <= T(1) ? T(1) : parse_real<T>("0.1") * m * log(factor) + T(1);
}

// inv_i = inv_i/s * ramp_i + inv_i * (1 - ramp_i), ramp over [max(floor(c(beta_fast)), 0),
// min(ceil(c(beta_slow)), d-1)] with c = yarn_correction_dim.
template <class T>
Vector<T> yarn_inverse_frequencies(const T& base, std::size_t head_dim, const RopeScaling<T>& s) {
    using std::ceil;
    using std::floor;
    T low = yarn_correction_dim(s.beta_fast, head_dim, base, s.original_context);
    T high = yarn_correction_dim(s.beta_slow, head_dim, base, s.original_context);
    if (s.truncate) low = floor(low), high = ceil(high);
    low = std::max(low, T(0));
    high = std::min(high, T(static_cast<long>(head_dim) - 1));
    Vector<T> inv = inverse_frequencies(base, head_dim);
    for (std::size_t i = 0; i < inv.size(); ++i) {
        const T ramp = yarn_ramp(i, low, high);
        inv[i] = inv[i] / s.factor * ramp + inv[i] * (T(1) - ramp);
    }
    return inv;
}

// YaRN's attention factor: given, or mscale(s, mscale) / mscale(s, mscale_all_dim) when
// both are set, or mscale(s, 1).
template <class T>
T yarn_attention_factor(const RopeScaling<T>& s) {
    if (s.attention_factor) return *s.attention_factor;
    if (s.mscale != T(0) && s.mscale_all_dim != T(0))
        return yarn_mscale(s.factor, s.mscale) / yarn_mscale(s.factor, s.mscale_all_dim);
    return yarn_mscale(s.factor, T(1));
}

// LongRoPE: inv_i = 1 / (f_i base^(2i/d)), f the long list when L > L0, else the short one.
template <class T>
Vector<T> longrope_inverse_frequencies(const T& base, std::size_t head_dim, const RopeScaling<T>& s,
                                       std::size_t sequence_length) {
    const Vector<T>& divisors = sequence_length > s.original_context ? s.long_factor : s.short_factor;
    if (divisors.size() != head_dim / 2) throw std::invalid_argument("LongRoPE needs one factor per pair");
    Vector<T> inv = inverse_frequencies(base, head_dim);
    for (std::size_t i = 0; i < inv.size(); ++i) inv[i] /= divisors[i];
    return inv;
}

// LongRoPE's attention factor: given, or sqrt(1 + ln s / ln L0) for s > 1, else 1.
template <class T>
T longrope_attention_factor(const RopeScaling<T>& s) {
    using std::log;
    using std::sqrt;
    if (s.attention_factor) return *s.attention_factor;
    if (s.factor <= T(1)) return T(1);
    return sqrt(T(1) + log(s.factor) / log(T(static_cast<long>(s.original_context))));
}

// Llama 3.1, by wavelength w_i = 2 pi / inv_i: w > L0/low_freq_factor -> inv/s;
// w < L0/high_freq_factor -> inv; between, (1 - a) inv/s + a inv with
// a = (L0/w - low_freq_factor) / (high_freq_factor - low_freq_factor).
template <class T>
Vector<T> llama3_inverse_frequencies(const T& base, std::size_t head_dim, const RopeScaling<T>& s) {
    const T context(static_cast<long>(s.original_context));
    const T low_wavelength = context / s.low_freq_factor, high_wavelength = context / s.high_freq_factor;
    Vector<T> inv = inverse_frequencies(base, head_dim);
    for (T& f : inv) {
        const T wavelength = T(2) * pi<T>() / f;
        if (wavelength > low_wavelength) {
            f /= s.factor;
        } else if (wavelength >= high_wavelength && s.mistake != RopeScalingMistake::llama3_band_skipped) {
            const T a = (context / wavelength - s.low_freq_factor) / (s.high_freq_factor - s.low_freq_factor);
            f = (T(1) - a) * f / s.factor + a * f;
        }
    }
    return inv;
}

// Where a porting slip puts the attention factor m: nowhere (cos and sin carry 1), on cos and sin
// and again on q and k (cos and sin carry m^2), or on cos and sin and again on the scores.
template <class T>
void apply_attention_factor_mistake(Rope<T>& rope, RopeScalingMistake mistake) {
    if (mistake == RopeScalingMistake::attention_factor_missing) rope.attention_factor = T(1);
    if (mistake == RopeScalingMistake::attention_factor_twice) rope.attention_factor *= rope.attention_factor;
    if (mistake == RopeScalingMistake::attention_factor_on_scores) rope.score_factor = rope.attention_factor;
}

// The plan of a configuration: base theta, head width d, scaling and pairing. The sequence
// length L (last position + 1) matters only to `dynamic` and `longrope`, as in Hugging Face's
// forward, which recomputes their frequencies from the largest position it is given.
template <class T>
Rope<T> make_rope(const T& theta, std::size_t head_dim, const RopeScaling<T>& scaling, RopeLayout layout,
                  std::size_t sequence_length = 0) {
    if (head_dim == 0 || head_dim % 2 != 0) throw std::invalid_argument("RoPE needs an even head width");
    if (scaling.type != RopeScalingType::none && scaling.type != RopeScalingType::linear &&
        scaling.type != RopeScalingType::ntk && scaling.original_context == 0)
        throw std::invalid_argument("this RoPE scaling needs the original context length");
    if (scaling.mistake == RopeScalingMistake::not_applied) return make_rope(theta, head_dim, RopeScaling<T>{}, layout);
    Rope<T> rope;
    rope.layout = layout;
    switch (scaling.type) {
        case RopeScalingType::none:
            rope.inverse_frequencies = inverse_frequencies(theta, head_dim);
            break;
        case RopeScalingType::linear:
            rope.inverse_frequencies = inverse_frequencies(theta, head_dim);
            rope.position_divisor = scaling.factor;
            break;
        case RopeScalingType::ntk:
            rope.inverse_frequencies = inverse_frequencies(ntk_base(theta, scaling.factor, head_dim), head_dim);
            break;
        case RopeScalingType::dynamic: {
            const T s = dynamic_ntk_factor(scaling, sequence_length);
            rope.inverse_frequencies = inverse_frequencies(ntk_base(theta, s, head_dim), head_dim);
            break;
        }
        case RopeScalingType::yarn:
            rope.inverse_frequencies = yarn_inverse_frequencies(theta, head_dim, scaling);
            rope.attention_factor = yarn_attention_factor(scaling);
            break;
        case RopeScalingType::longrope:
            rope.inverse_frequencies = longrope_inverse_frequencies(theta, head_dim, scaling, sequence_length);
            rope.attention_factor = longrope_attention_factor(scaling);
            break;
        case RopeScalingType::llama3:
            rope.inverse_frequencies = llama3_inverse_frequencies(theta, head_dim, scaling);
            break;
    }
    apply_attention_factor_mistake(rope, scaling.mistake);
    return rope;
}

// The teaching plan: one pair turning a fixed angle per position (a quarter turn, 30 degrees).
template <class T>
Rope<T> fixed_angle_rope(const T& radians_per_position) {
    return Rope<T>{Vector<T>{radians_per_position}, T(1), RopeLayout::interleaved};
}

// Angle of pair i at a position: (position / divisor) * inv_freq_i.
template <class T>
T rope_angle(const Rope<T>& rope, std::size_t pair, const T& position) {
    return position / rope.position_divisor * rope.inverse_frequencies[pair];
}

// R_theta(x, y) = (x cos(theta) - y sin(theta), x sin(theta) + y cos(theta))
template <class T>
std::pair<T, T> rotate(const T& x, const T& y, const T& cos_angle, const T& sin_angle) {
    return {x * cos_angle - y * sin_angle, x * sin_angle + y * cos_angle};
}

// The cosines and sines of every pair at one position, computed once and shared by all
// heads of Q and K.
template <class T>
struct RopeTurn {
    Vector<T> cos, sin;  // [head_dim / 2]
};

template <class T>
RopeTurn<T> rope_turn(const Rope<T>& rope, const T& position) {
    using std::cos;
    using std::sin;
    RopeTurn<T> turn{Vector<T>(rope.inverse_frequencies.size()), Vector<T>(rope.inverse_frequencies.size())};
    for (std::size_t i = 0; i < turn.cos.size(); ++i) {
        T angle = rope_angle(rope, i, T(position + rope.position_offset));
        turn.cos[i] = cos(angle) * rope.attention_factor;
        turn.sin[i] = (rope.clockwise ? T(-sin(angle)) : T(sin(angle))) * rope.attention_factor;
    }
    return turn;
}

// Index of the two coordinates forming pair i in a head of width d.
inline std::pair<std::size_t, std::size_t> rope_pair(RopeLayout layout, std::size_t i, std::size_t head_dim) {
    return layout == RopeLayout::interleaved ? std::pair{2 * i, 2 * i + 1} : std::pair{i, i + head_dim / 2};
}

// Rotates every head of one row in place (each head's first head_dim() coordinates when the
// plan's head_stride is wider).  row: [heads * head_stride]
template <class T>
void apply_rope(std::span<T> row, const Rope<T>& rope, const RopeTurn<T>& turn) {
    const std::size_t d = rope.head_dim(), stride = rope.head_stride ? rope.head_stride : d;
    for (std::size_t head = 0; head + stride <= row.size(); head += stride)
        for (std::size_t i = 0; i < d / 2; ++i) {
            auto [a, b] = rope_pair(rope.layout, i, d);
            std::tie(row[head + a], row[head + b]) = rotate(row[head + a], row[head + b], turn.cos[i], turn.sin[i]);
        }
}

// Rotates one vector of pairs to a position (for the teaching examples).  x: [head_dim]
template <class T>
Vector<T> rope_rotate(Vector<T> x, const Rope<T>& rope, const T& position) {
    apply_rope<T>(x, rope, rope_turn(rope, position));
    return x;
}

}  // namespace blockcheck
