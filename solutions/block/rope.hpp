// Rotary position embeddings (chapter 25.1): each coordinate pair of a query or key head
// turns by an angle that grows with the token's position.
#pragma once

#include "tensor.hpp"

#include <cmath>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace blockcheck {

// Which coordinates form pair i of a head of width d.
enum class RopeLayout {
    interleaved,  // (2i, 2i+1): RoFormer, Meta's LLaMA code, llama2.c, ggml NORMAL
    half,         // (i, i + d/2): Hugging Face rotate_half, GPT-NeoX, ggml NEOX
};

enum class RopeScalingType { none, linear, ntk };

template <class T>
struct RopeScaling {
    RopeScalingType type = RopeScalingType::none;
    T factor = T(1);  // s: how many times the trained context is stretched
};

// The frequency plan shared by every head: pair i turns inverse_frequencies[i] radians per
// (scaled) position.
template <class T>
struct Rope {
    Vector<T> inverse_frequencies;  // [head_dim / 2]
    T position_divisor = T(1);      // Position Interpolation divides positions by s
    RopeLayout layout = RopeLayout::interleaved;

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

// The plan of a configuration: base theta, head width d, scaling and pairing.
template <class T>
Rope<T> make_rope(const T& theta, std::size_t head_dim, const RopeScaling<T>& scaling, RopeLayout layout) {
    if (head_dim == 0 || head_dim % 2 != 0) throw std::invalid_argument("RoPE needs an even head width");
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
    }
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
        T angle = rope_angle(rope, i, position);
        turn.cos[i] = cos(angle);
        turn.sin[i] = sin(angle);
    }
    return turn;
}

// Index of the two coordinates forming pair i in a head of width d.
inline std::pair<std::size_t, std::size_t> rope_pair(RopeLayout layout, std::size_t i, std::size_t head_dim) {
    return layout == RopeLayout::interleaved ? std::pair{2 * i, 2 * i + 1} : std::pair{i, i + head_dim / 2};
}

// Rotates every head of one row in place.  row: [heads * head_dim]
template <class T>
void apply_rope(std::span<T> row, const Rope<T>& rope, const RopeTurn<T>& turn) {
    const std::size_t d = rope.head_dim();
    for (std::size_t head = 0; head + d <= row.size(); head += d)
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
