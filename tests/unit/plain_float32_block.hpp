// A plain float32 block in the style of llama2.c, written independently of solutions/block,
// with switches that plant the bugs engineers make. Its trace uses the --trace names, so
// `compare` can locate a bug by stage. No RoPE scaling; no cache.
#pragma once

#include "checker/block/block_case.hpp"

#include <cmath>

namespace blockcheck::testing {

struct PlantedBugs {
    bool eps_outside_sqrt = false;  // x / (sqrt(mean x^2) + eps) instead of x / sqrt(mean x^2 + eps)
    float typed_eps = 0;            // nonzero: this eps typed in instead of the config's
    bool one_plus_gain = false;     // x * (1 + g), Gemma's norm, instead of x * g
    bool other_pairing = false;     // half pairs on an interleaved case, or the other way round
    bool rotate_v = false;          // V rotated as well as Q and K
    bool positions_from_one = false;  // the first row at start + 1
    bool theta_10000 = false;       // rope_theta typed in as 10000
    bool no_score_scale = false;    // scores not divided by sqrt(head_dim)
    bool score_scaled_twice = false;  // q scaled by 1/sqrt(d), and the scores again
    bool no_causal_mask = false;    // every row sees every row
    bool kv_tiled = false;          // query head h reads KV head h % kv_heads (torch.tile, not repeat_interleave)
    bool gate_up_swapped = false;   // w_gate loaded as up and w_up as gate
    bool gelu = false;              // F.gelu on the gate instead of F.silu
    bool square_weights_as_stored = false;  // weights stored [out, in], transposed only when the shape does not fit
};

namespace plain {

using Rows = std::vector<std::vector<float>>;  // [T][width]

inline Rows to_float(const Matrix<double>& m) {
    Rows r(m.rows, std::vector<float>(m.cols));
    for (std::size_t i = 0; i < m.rows; ++i)
        for (std::size_t j = 0; j < m.cols; ++j) r[i][j] = static_cast<float>(m(i, j));
    return r;
}

inline Matrix<Mpfr50> to_real(const Rows& r) {
    Matrix<Mpfr50> m(r.size(), r.empty() ? 0 : r[0].size());
    for (std::size_t i = 0; i < m.rows; ++i)
        for (std::size_t j = 0; j < m.cols; ++j) m(i, j) = Mpfr50(static_cast<double>(r[i][j]));
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

// The weight as a loader reads it from a file that stores it [out, in]; the buggy loader transposes
// only when the stored shape does not fit [in, out], so a square matrix stays as stored.
inline Rows loaded(const Matrix<double>& w, bool bug) {
    Rows stored(w.cols, std::vector<float>(w.rows));  // [out, in]
    for (std::size_t i = 0; i < w.rows; ++i)
        for (std::size_t j = 0; j < w.cols; ++j) stored[j][i] = static_cast<float>(w(i, j));
    if (bug && w.rows == w.cols) return stored;
    return to_float(w);
}

inline Rows rmsnorm(const Rows& x, const std::vector<double>& gain, float eps, bool bug, bool one_plus) {
    Rows y = x;
    for (auto& row : y) {
        float ss = 0.0f;
        for (float v : row) ss += v * v;
        ss /= static_cast<float>(row.size());
        const float scale = bug ? 1.0f / (std::sqrt(ss) + eps) : 1.0f / std::sqrt(ss + eps);
        for (std::size_t i = 0; i < row.size(); ++i)
            row[i] = (static_cast<float>(gain[i]) + (one_plus ? 1.0f : 0.0f)) * (row[i] * scale);
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

inline Rows attention(const Rows& q, const Rows& k, const Rows& v, const BlockConfig<double>& c, const PlantedBugs& bugs) {
    const std::size_t d = c.head_dim, group = c.query_heads / c.kv_heads;
    const float root_d = std::sqrt(static_cast<float>(d));
    Rows out(q.size(), std::vector<float>(c.query_heads * d, 0.0f));
    for (std::size_t h = 0; h < c.query_heads; ++h)
        for (std::size_t t = 0; t < q.size(); ++t) {
            const std::size_t kv = (bugs.kv_tiled ? h % c.kv_heads : h / group) * d;
            const std::size_t visible = bugs.no_causal_mask ? q.size() : t + 1;
            std::vector<float> score(visible);
            float top = -INFINITY;
            for (std::size_t j = 0; j < visible; ++j) {
                float s = 0.0f;
                for (std::size_t i = 0; i < d; ++i)
                    s += (bugs.score_scaled_twice ? q[t][h * d + i] / root_d : q[t][h * d + i]) * k[j][kv + i];
                score[j] = bugs.no_score_scale ? s : s / root_d;
                top = std::max(top, score[j]);
            }
            float sum = 0.0f;
            for (float& s : score) sum += s = std::exp(s - top);
            for (std::size_t j = 0; j < visible; ++j)
                for (std::size_t i = 0; i < d; ++i) out[t][h * d + i] += score[j] / sum * v[j][kv + i];
        }
    return out;
}

}  // namespace plain

// The block in float32, its stages under the --trace names.
inline Trace<Mpfr50> plain_float32_forward(const BlockCase<double>& bc, PlantedBugs bugs = {}) {
    using namespace plain;
    const BlockConfig<double>& c = bc.config;
    const BlockWeights<double>& w = bc.weights;
    const float eps = bugs.typed_eps != 0 ? bugs.typed_eps : static_cast<float>(c.rms_norm_eps);
    const bool as_stored = bugs.square_weights_as_stored;
    Trace<Mpfr50> trace;
    auto record = [&](const char* name, const Rows& r) { trace.add(name, to_real(r)); };
    const Rows x = to_float(bc.input);
    const Rows n = rmsnorm(x, w.attn_norm, eps, bugs.eps_outside_sqrt, bugs.one_plus_gain);
    record("N", n);
    Rows q = matmul(n, loaded(w.q, as_stored)), k = matmul(n, loaded(w.k, as_stored)), v = matmul(n, loaded(w.v, as_stored));
    record("Q", q), record("K", k), record("V", v);
    const bool interleaved = (c.rope_layout == RopeLayout::interleaved) != bugs.other_pairing;
    const float theta = bugs.theta_10000 ? 10000.0f : static_cast<float>(c.rope_theta);
    const long start = bc.start_position + (bugs.positions_from_one ? 1 : 0);
    rope(q, c.head_dim, theta, start, interleaved);
    rope(k, c.head_dim, theta, start, interleaved);
    if (bugs.rotate_v) rope(v, c.head_dim, theta, start, interleaved);
    record("Q_rotated", q), record("K_rotated", k);
    const Rows heads = attention(q, k, v, c, bugs);
    record("heads", heads);
    Rows r = matmul(heads, loaded(w.o, as_stored));
    for (std::size_t t = 0; t < r.size(); ++t)
        for (std::size_t i = 0; i < r[t].size(); ++i) r[t][i] += x[t][i];
    record("R", r);
    const Rows m = rmsnorm(r, w.ffn_norm, eps, bugs.eps_outside_sqrt, bugs.one_plus_gain);
    record("M", m);
    const Rows w_gate = bugs.gate_up_swapped ? loaded(w.up, as_stored) : loaded(w.gate, as_stored);
    const Rows w_up = bugs.gate_up_swapped ? loaded(w.gate, as_stored) : loaded(w.up, as_stored);
    const Rows gate = matmul(m, w_gate), up = matmul(m, w_up);
    record("gate", gate), record("up", up);
    Rows hidden = gate;
    for (std::size_t t = 0; t < hidden.size(); ++t)
        for (std::size_t i = 0; i < hidden[t].size(); ++i)
            hidden[t][i] = bugs.gelu ? 0.5f * gate[t][i] * (1.0f + std::erf(gate[t][i] / std::sqrt(2.0f))) * up[t][i]
                                     : gate[t][i] / (1.0f + std::exp(-gate[t][i])) * up[t][i];  // silu(g) * u
    record("hidden", hidden);
    Rows y = matmul(hidden, loaded(w.down, as_stored));
    for (std::size_t t = 0; t < y.size(); ++t)
        for (std::size_t i = 0; i < y[t].size(); ++i) y[t][i] += r[t][i];
    record("output", y);
    return trace;
}

}  // namespace blockcheck::testing
