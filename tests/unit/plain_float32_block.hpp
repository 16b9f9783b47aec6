// A plain float32 block in the style of llama2.c, written independently of solutions/block,
// with switches that plant the bugs engineers make. Its trace uses the --trace names, so
// `compare` can locate a bug by stage. No RoPE scaling; no cache.
#pragma once

#include "checker/block/block_case.hpp"

#include <cmath>

namespace blockcheck::testing {

struct PlantedBugs {
    bool eps_outside_sqrt = false;  // x / (sqrt(mean x^2) + eps) instead of x / sqrt(mean x^2 + eps)
    bool other_pairing = false;     // half pairs on an interleaved case, or the other way round
    bool no_score_scale = false;    // scores not divided by sqrt(head_dim)
};

namespace plain {

using Rows = std::vector<std::vector<float>>;  // [T][width]

inline Rows to_float(const Matrix<double>& m) {
    Rows r(m.rows, std::vector<float>(m.cols));
    for (std::size_t i = 0; i < m.rows; ++i)
        for (std::size_t j = 0; j < m.cols; ++j) r[i][j] = static_cast<float>(m(i, j));
    return r;
}

inline Matrix<Real50> to_real(const Rows& r) {
    Matrix<Real50> m(r.size(), r.empty() ? 0 : r[0].size());
    for (std::size_t i = 0; i < m.rows; ++i)
        for (std::size_t j = 0; j < m.cols; ++j) m(i, j) = Real50(static_cast<double>(r[i][j]));
    return m;
}

inline Rows matmul(const Rows& x, const Rows& w) {  // [T, in] x [in, out]
    Rows y(x.size(), std::vector<float>(w[0].size(), 0.0f));
    for (std::size_t t = 0; t < x.size(); ++t)
        for (std::size_t j = 0; j < w[0].size(); ++j) {
            float sum = 0.0f;
            for (std::size_t i = 0; i < w.size(); ++i) sum += x[t][i] * w[i][j];
            y[t][j] = sum;
        }
    return y;
}

inline Rows rmsnorm(const Rows& x, const std::vector<double>& gain, float eps, bool bug) {
    Rows y = x;
    for (auto& row : y) {
        float ss = 0.0f;
        for (float v : row) ss += v * v;
        ss /= static_cast<float>(row.size());
        const float scale = bug ? 1.0f / (std::sqrt(ss) + eps) : 1.0f / std::sqrt(ss + eps);
        for (std::size_t i = 0; i < row.size(); ++i) row[i] = static_cast<float>(gain[i]) * (row[i] * scale);
    }
    return y;
}

inline void rope(Rows& x, std::size_t head_dim, float theta, long start, bool interleaved) {
    for (std::size_t t = 0; t < x.size(); ++t)
        for (std::size_t h = 0; h < x[t].size(); h += head_dim)
            for (std::size_t i = 0; i < head_dim / 2; ++i) {
                const float freq = std::pow(theta, -2.0f * static_cast<float>(i) / static_cast<float>(head_dim));
                const float angle = static_cast<float>(start + static_cast<long>(t)) * freq;
                const std::size_t a = interleaved ? 2 * i : i, b = interleaved ? 2 * i + 1 : i + head_dim / 2;
                const float x0 = x[t][h + a], x1 = x[t][h + b];
                x[t][h + a] = x0 * std::cos(angle) - x1 * std::sin(angle);
                x[t][h + b] = x0 * std::sin(angle) + x1 * std::cos(angle);
            }
}

inline Rows attention(const Rows& q, const Rows& k, const Rows& v, const BlockConfig<double>& c, bool bug) {
    const std::size_t d = c.head_dim, group = c.query_heads / c.kv_heads;
    Rows out(q.size(), std::vector<float>(c.query_heads * d, 0.0f));
    for (std::size_t h = 0; h < c.query_heads; ++h)
        for (std::size_t t = 0; t < q.size(); ++t) {
            const std::size_t kv = (h / group) * d;
            std::vector<float> score(t + 1);
            float top = -INFINITY;
            for (std::size_t j = 0; j <= t; ++j) {
                float s = 0.0f;
                for (std::size_t i = 0; i < d; ++i) s += q[t][h * d + i] * k[j][kv + i];
                score[j] = bug ? s : s / std::sqrt(static_cast<float>(d));
                top = std::max(top, score[j]);
            }
            float sum = 0.0f;
            for (float& s : score) sum += s = std::exp(s - top);
            for (std::size_t j = 0; j <= t; ++j)
                for (std::size_t i = 0; i < d; ++i) out[t][h * d + i] += score[j] / sum * v[j][kv + i];
        }
    return out;
}

}  // namespace plain

// The block in float32, its stages under the --trace names.
inline Trace<Real50> plain_float32_forward(const BlockCase<double>& bc, PlantedBugs bugs = {}) {
    using namespace plain;
    const BlockConfig<double>& c = bc.config;
    const BlockWeights<double>& w = bc.weights;
    const float eps = static_cast<float>(c.rms_norm_eps);
    Trace<Real50> trace;
    auto record = [&](const char* name, const Rows& r) { trace.add(name, to_real(r)); };
    const Rows x = to_float(bc.input);
    const Rows n = rmsnorm(x, w.attn_norm, eps, bugs.eps_outside_sqrt);
    record("N", n);
    Rows q = matmul(n, to_float(w.q)), k = matmul(n, to_float(w.k)), v = matmul(n, to_float(w.v));
    record("Q", q), record("K", k), record("V", v);
    const bool interleaved = (c.rope_layout == RopeLayout::interleaved) != bugs.other_pairing;
    rope(q, c.head_dim, static_cast<float>(c.rope_theta), bc.start_position, interleaved);
    rope(k, c.head_dim, static_cast<float>(c.rope_theta), bc.start_position, interleaved);
    record("Q_rotated", q), record("K_rotated", k);
    const Rows heads = attention(q, k, v, c, bugs.no_score_scale);
    record("heads", heads);
    Rows r = matmul(heads, to_float(w.o));
    for (std::size_t t = 0; t < r.size(); ++t)
        for (std::size_t i = 0; i < r[t].size(); ++i) r[t][i] += x[t][i];
    record("R", r);
    const Rows m = rmsnorm(r, w.ffn_norm, eps, bugs.eps_outside_sqrt);
    record("M", m);
    const Rows gate = matmul(m, to_float(w.gate)), up = matmul(m, to_float(w.up));
    record("gate", gate), record("up", up);
    Rows hidden = gate;
    for (std::size_t t = 0; t < hidden.size(); ++t)
        for (std::size_t i = 0; i < hidden[t].size(); ++i)
            hidden[t][i] = gate[t][i] / (1.0f + std::exp(-gate[t][i])) * up[t][i];  // silu(g) * u
    record("hidden", hidden);
    Rows y = matmul(hidden, to_float(w.down));
    for (std::size_t t = 0; t < y.size(); ++t)
        for (std::size_t i = 0; i < y[t].size(); ++i) y[t][i] += r[t][i];
    record("output", y);
    return trace;
}

}  // namespace blockcheck::testing
