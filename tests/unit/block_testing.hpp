// Helpers for the block's tests: tolerances per scalar, relative comparison, seeded random
// blocks whose weights are exact in every precision (multiples of 1/64).
#pragma once

#include "solutions/block/block.hpp"
#include "solutions/block/real.hpp"

#include <cstdint>

namespace blockcheck::testing {

// The agreement expected of a chain of a few hundred roundings at T's precision.
template <class T>
T tolerance() {
    if constexpr (std::is_same_v<T, double>) return 1e-12;
    else if constexpr (std::is_same_v<T, Real50>) return parse_real<T>("1e-45");
    else return parse_real<T>("1e-95");
}

// |a - b| / max(|b|, 1)
template <class T>
T relative_difference(const T& a, const T& b) {
    using std::abs;
    return abs(a - b) / std::max(abs(b), T(1));
}

template <class T>
T max_relative_difference(const Matrix<T>& a, const Matrix<T>& b) {
    if (a.rows != b.rows || a.cols != b.cols) return T(1e9);
    T worst(0);
    for (std::size_t i = 0; i < a.values.size(); ++i) worst = std::max(worst, relative_difference(a.values[i], b.values[i]));
    return worst;
}

// A deterministic stream of multiples of 1/64 in [-limit/64, limit/64].
class Dyadic {
public:
    explicit Dyadic(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
    template <class T>
    T next(int limit = 40) {
        state_ ^= state_ << 13, state_ ^= state_ >> 7, state_ ^= state_ << 17;
        return T(static_cast<long>(state_ % (2 * limit + 1)) - limit) / T(64);
    }
    template <class T>
    Matrix<T> matrix(std::size_t rows, std::size_t cols) {
        Matrix<T> m(rows, cols);
        for (T& v : m.values) v = next<T>();
        return m;
    }
    template <class T>
    Vector<T> gains(std::size_t n) {
        Vector<T> g(n);
        for (T& v : g) v = T(1) + next<T>(16);
        return g;
    }

private:
    std::uint64_t state_;
};

template <class T>
BlockConfig<T> small_config(std::size_t query_heads, std::size_t kv_heads, std::size_t head_dim,
                            RopeLayout layout = RopeLayout::interleaved, RopeScaling<T> scaling = {}) {
    BlockConfig<T> c;
    c.hidden_size = 12;
    c.query_heads = query_heads;
    c.kv_heads = kv_heads;
    c.head_dim = head_dim;
    c.ffn_hidden_size = 20;
    c.rms_norm_eps = parse_real<T>("0.000001");
    c.rope_theta = T(10000);
    c.rope_layout = layout;
    c.rope_scaling = scaling;
    return c;
}

template <class T>
BlockWeights<T> random_weights(const BlockConfig<T>& c, std::uint64_t seed) {
    Dyadic r(seed);
    const std::size_t C = c.hidden_size, F = c.ffn_hidden_size;
    const std::size_t qd = c.query_heads * c.head_dim, kvd = c.kv_heads * c.head_dim;
    return {r.gains<T>(C), r.matrix<T>(C, qd), r.matrix<T>(C, kvd), r.matrix<T>(C, kvd), r.matrix<T>(qd, C),
            r.gains<T>(C), r.matrix<T>(C, F), r.matrix<T>(C, F), r.matrix<T>(F, C)};
}

}  // namespace blockcheck::testing
