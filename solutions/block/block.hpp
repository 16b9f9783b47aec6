// The chapter's dense block (figure 25.1): RMSNorm -> Q/K/V -> RoPE on Q and K -> causal
// attention -> output projection -> residual R; RMSNorm -> SwiGLU FFN -> residual.
#pragma once

#include "attention.hpp"
#include "ffn.hpp"
#include "norms.hpp"
#include "rope.hpp"

#include <array>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace blockcheck {

// Where RMSNorm sits around each sublayer: on its input (LLaMA), on its output before the residual
// add (OLMo 2), or both (Gemma 2 and 3: four norms a layer).
enum class NormSides { input, output, both };

// RMSNorm on Q and K before RoPE: none, over each head's d coordinates (Qwen3, Gemma 3), or over
// the whole projection (OLMo 2).
enum class QkNorm { none, per_head, whole };

// One kind of layer of a model with two (Gemma's local and global layers, Qwen2's windowed ones):
// its window (0: none) and its RoPE.
template <class T>
struct LayerKind {
    std::size_t sliding_window = 0;
    T rope_theta = T(10000);
    RopeScaling<T> rope_scaling;
};

// The block's geometry: the single description of its shapes.
template <class T>
struct BlockConfig {
    std::size_t hidden_size = 0;      // C: coordinates of a token row
    std::size_t query_heads = 0;      // heads of Q
    std::size_t kv_heads = 0;         // heads of K and V (divides query_heads)
    std::size_t head_dim = 0;         // d: coordinates per head, even
    std::size_t ffn_hidden_size = 0;  // F: width of both the gate and the up branch
    T rms_norm_eps = T(0);            // added under the square root
    T rope_theta = T(10000);          // base of the frequency plan
    RopeLayout rope_layout = RopeLayout::interleaved;
    RopeScaling<T> rope_scaling;
    bool pre_norm = true;             // normalise each sublayer's input (false: its output)
    // Two classic slips, made on purpose only to diagnose them (mistakes not_causal and
    // eps_outside_sqrt); the chapter's block keeps these defaults.
    bool causal = true;               // false: every query sees the whole cache
    EpsPlacement eps_placement = EpsPlacement::under_root;
    // Three more (rope_on_v, no_attention_scale, wrong_kv_head).
    bool rotate_v = false;            // true: V turned by RoPE as Q and K
    bool scale_scores = true;         // false: scores q.k without the 1/sqrt(d)
    bool kv_round_robin = false;      // true: query head h reads KV head h mod kv_heads
    bool mask_reversed = false;       // true: a query sees the positions >= its own (mistake mask_reversed)
    // Porting slips, each made from its catalogue id by make_porting_mistake (block_mistakes.hpp).
    long position_offset = 0;         // 1: positions counted from 1 (position_off_by_one)
    bool gain_plus_one = false;       // true: RMSNorm multiplies by 1 + g (norm_gain_plus_one)
    bool scale_scores_twice = false;  // true: scores divided by sqrt(d) twice (attention_scale_twice)
    bool swap_gate_up = false;        // true: W_up read as the gate, W_gate as up (gate_up_swapped)
    bool transpose_square_weights = false;  // true: square weights used as stored [out, in] (transposed_weights)
    unsigned weights_in_other_order = 0;    // bit i: block_weight_names[i] read in the other order (weight_other_order)
    GateActivation gate_activation = GateActivation::silu;  // gelu: GELU for SiLU (gelu_for_silu)
    bool clockwise = false;           // true: RoPE turns the other way, the sine's sign flipped (clockwise_rotation)
    bool residual_from_norm = false;  // true: a sublayer's output added to its normalised input (residual_from_norm)
    bool residual_forgotten = false;  // true: a sublayer's output taken alone, nothing added (residual_forgotten)
    // The model families' mechanisms (docs/checkpoints.md), each off in the chapter's block; gain_plus_one
    // above is Gemma's RMSNorm (gains stored as g, used as 1 + g).
    std::size_t rotary_dim = 0;       // coordinates of each head RoPE turns, the first ones (0: all; Phi-3)
    bool qkv_bias = false;            // Q, K and V add their projections' biases (Qwen2)
    QkNorm qk_norm = QkNorm::none;    // Q and K normalised before RoPE (Qwen3, Gemma 3, OLMo 2)
    NormSides norm_sides = NormSides::input;  // with pre_norm: where each sublayer's norms sit (Gemma, OLMo 2)
    std::size_t sliding_window = 0;   // w > 0: a query sees the keys fewer than w positions back (Mistral, ...)
    std::optional<T> softcap;         // attention logits soft-capped at +-c (Gemma 2's attn_logit_softcapping)
    std::optional<T> query_pre_attn_scalar;  // s: scores scaled by s^-1/2, not head_dim^-1/2 (Gemma)
    bool fused_qkv = false;           // Q, K, V stored as one qkv_proj (Phi-3), for its mistake
    std::optional<LayerKind<T>> other_kind;  // the model's other kind of layer (local_global_shifted)
    // Their porting slips (block_mistakes.hpp), besides the switches above turned off:
    bool qk_norm_after_rope = false;  // true: Q and K normalised after RoPE (qk_norm_after_rope)
    bool norms_swapped = false;       // true: input and output norms swapped (norms_pre_post_swapped)
    bool swap_k_v = false;            // true: qkv_proj split as q, v, k (fused_qkv_split_order)

    HeadLayout heads() const { return {query_heads, kv_heads, head_dim, kv_round_robin}; }
    // The frequency plan for a forward whose last position is sequence_length - 1.
    Rope<T> rope(std::size_t sequence_length = 0) const {
        Rope<T> plan = make_rope(rope_theta, rotary_dim ? rotary_dim : head_dim, rope_scaling, rope_layout, sequence_length);
        plan.clockwise = clockwise;
        plan.head_stride = head_dim;
        return plan;
    }
};

// The weights of one block, [in, out] as the chapter writes them (y = x W): matrices of T, or
// (W = StoredMatrix, stored_weights.hpp) a checkpoint's own bytes in their own element type.
template <class T, class W = Matrix<T>>
struct BlockWeights {
    Vector<T> attn_norm;  // [C]
    W q;                  // [C, query_heads * d]
    W k, v;               // [C, kv_heads * d]
    W o;                  // [query_heads * d, C]
    Vector<T> ffn_norm;   // [C]
    W gate, up;           // [C, F]
    W down;               // [F, C]
    // The families' further parameters, empty where the layer has none:
    Vector<T> q_bias, k_bias, v_bias;       // [query_heads * d], [kv_heads * d] (Qwen2)
    Vector<T> q_norm, k_norm;               // [d] (each head's) or [heads * d] (the whole projection's)
    Vector<T> attn_out_norm, ffn_out_norm;  // [C]: the norms of the sublayers' outputs (Gemma, OLMo 2)
};

// The seven matrices by their Hugging Face names, in the order of BlockConfig::weights_in_other_order's bits.
inline constexpr std::array<std::string_view, 7> block_weight_names{"q_proj",    "k_proj",  "v_proj",   "o_proj",
                                                                    "gate_proj", "up_proj", "down_proj"};

template <class T, class W>
std::array<W*, 7> weight_matrices(BlockWeights<T, W>& w) {
    return {&w.q, &w.k, &w.v, &w.o, &w.gate, &w.up, &w.down};
}

// W [in, out] as a port reads it when it takes nn.Linear's buffer, [out, in] row-major (W^T's
// values), for [in, out] row-major: a reshape where a transpose was due. For a square matrix it
// is W^T (the weight used transposed); otherwise its values are scrambled, the shape still fits.
template <class T>
Matrix<T> other_order(const Matrix<T>& w) {
    Matrix<T> read = transpose(w);
    read.rows = w.rows, read.cols = w.cols;
    return read;
}

// Named intermediate values, in the order the block computes them: every stage's matrix
// (N, Q, K, V, Q_rotated, K_rotated, attention_weights/h, heads, attention_output, R, M, gate,
// up, hidden, down, output; post-norm has no N and M; a family's layer adds Q_normed and K_normed
// before Q_rotated, attention_normed before R and down_normed before output where it has those
// norms, and has no N and M where it has no input norms) so that readers never recompute one.
template <class T>
class Trace {
public:
    using Entry = std::pair<std::string, Matrix<T>>;

    void add(std::string name, Matrix<T> value) {
        entries_.emplace_back(std::move(name), std::move(value));
        if (on_add) on_add(entries_.back().first);
    }

    // Called with each stage's name as the block records it (progress lines, stage timings).
    std::function<void(const std::string&)> on_add;

    // The value recorded under `name`; a logic_error names it when the block recorded none.
    const Matrix<T>& at(const std::string& name) const {
        for (const auto& [n, m] : entries_)
            if (n == name) return m;
        throw std::logic_error("the block's trace has no " + name);
    }

    // A stage taken as given (a student's own numbers): record() returns it in place of the
    // block's, so every later stage is computed from it.
    void give(std::string name, Matrix<T> value) { given_.emplace_back(std::move(name), std::move(value)); }
    const Matrix<T>* given(const std::string& name) const {
        for (const auto& [n, m] : given_)
            if (n == name) return &m;
        return nullptr;
    }

    auto begin() const { return entries_.begin(); }
    auto end() const { return entries_.end(); }
    std::size_t size() const { return entries_.size(); }

private:
    std::vector<Entry> entries_;
    std::vector<Entry> given_;
};

// Records `value` under `name` when tracing and returns it, so the maths and its trace sit on
// one line: Matrix<T> q = record(trace, "Q", matmul(n, w.q));
// A stage the trace was given (Trace::give) is returned in place of `value`.
template <class T>
Matrix<T> record(Trace<T>* trace, const std::string& name, Matrix<T> value) {
    if (trace && trace->given(name) && trace->given(name)->rows == value.rows && trace->given(name)->cols == value.cols)
        value = *trace->given(name);
    if (trace) trace->add(name, value);
    return value;
}

// The scores' rule: scaled by head_dim^-1/2 (query_pre_attn_scalar^-1/2 where the model gives it;
// 1 without the scale, its square with it twice: the scale slips), soft-capped and windowed as the
// layer says.
template <class T>
ScoreRule<T> score_rule(const BlockConfig<T>& config) {
    using std::sqrt;
    const T base = config.query_pre_attn_scalar ? *config.query_pre_attn_scalar : T(static_cast<long>(config.head_dim));
    T scale = config.scale_scores ? T(1) / sqrt(base) : T(1);
    if (config.scale_scores_twice) scale *= scale;
    return {scale, config.softcap, config.sliding_window};
}

// The mask reversed (mistake mask_reversed): query t sees the keys at positions >= its own. It is
// the causal attention on the positions negated, with the rows and the cache in reverse order.
template <class T>
Matrix<T> reversed_mask_attention(const Matrix<T>& q, std::span<const long> positions, const KvCache<T>& cache,
                                  const HeadLayout& heads, const ScoreRule<T>& rule) {
    KvCache<T> flipped;
    for (std::size_t j = cache.size(); j-- > 0;) flipped.append(cache.k[j], cache.v[j], -cache.positions[j]);
    Matrix<T> q_flipped(q.rows, q.cols);
    std::vector<long> at(q.rows);
    for (std::size_t t = 0; t < q.rows; ++t) {
        std::copy(q.row(q.rows - 1 - t).begin(), q.row(q.rows - 1 - t).end(), q_flipped.row(t).begin());
        at[t] = -positions[q.rows - 1 - t];
    }
    const Matrix<T> flipped_out = causal_attention<T>(q_flipped, at, flipped, heads, nullptr, rule);
    Matrix<T> out(flipped_out.rows, flipped_out.cols);
    for (std::size_t t = 0; t < out.rows; ++t)
        std::copy(flipped_out.row(out.rows - 1 - t).begin(), flipped_out.row(out.rows - 1 - t).end(), out.row(t).begin());
    return out;
}

// y + b on every row, where the layer has biases (Qwen2's q/k/v).  y: [T, n], bias: [n]
template <class T>
Matrix<T> plus_bias(Matrix<T> y, const Vector<T>& bias, const BlockConfig<T>& config) {
    if (!config.qkv_bias) return y;
    for (std::size_t t = 0; t < y.rows; ++t)
        for (std::size_t j = 0; j < y.cols; ++j) y(t, j) += bias[j];
    return y;
}

// The gains RMSNorm multiplies by: g, or 1 + g (Gemma's convention, or the slip norm_gain_plus_one),
// repeated to `width` when shorter (a head's gains over the whole projection).
template <class T>
Vector<T> norm_gains(const Vector<T>& g, const BlockConfig<T>& config, std::size_t width = 0) {
    if (g.empty()) throw std::logic_error("a norm without gains");
    Vector<T> gains;
    for (std::size_t i = 0; i < std::max(width, g.size()); ++i) gains.push_back(g[i % g.size()]);
    if (config.gain_plus_one)
        for (T& x : gains) x += T(1);
    return gains;
}

// RMSNorm of Q or K: over each head's d coordinates (Qwen3, Gemma 3; gains [d], or the head's
// slice of [heads * d]) or over the whole row (OLMo 2; gains [heads * d], or [d] repeated).
// x: [T, heads * d] -> [T, heads * d]
template <class T>
Matrix<T> qk_normed(const Matrix<T>& x, const Vector<T>& gains, const BlockConfig<T>& config) {
    const Vector<T> g = norm_gains(gains, config, x.cols);
    const std::size_t span = config.qk_norm == QkNorm::per_head ? config.head_dim : x.cols;
    Matrix<T> y(x.rows, x.cols);
    for (std::size_t t = 0; t < x.rows; ++t)
        for (std::size_t at = 0; at + span <= x.cols; at += span) {
            const Vector<T> part = rms_norm<T>(x.row(t).subspan(at, span), std::span<const T>(g).subspan(at, span),
                                               config.rms_norm_eps, config.eps_placement);
            std::copy(part.begin(), part.end(), y.row(t).begin() + static_cast<std::ptrdiff_t>(at));
        }
    return y;
}

// Attention sublayer without the residual: Q, K, V (plus their biases; Q and K normalised where
// the layer does it), rotates Q and K at `positions` (one a row, increasing, after the cache's),
// appends K and V to the cache and attends over it.  n: [T, C] -> [T, C]
template <class T, class W>
Matrix<T> attention_sublayer(const BlockConfig<T>& config, const BlockWeights<T, W>& w, const Matrix<T>& n,
                             std::span<const long> positions, KvCache<T>& cache, Trace<T>* trace) {
    Matrix<T> q = record(trace, "Q", plus_bias(matmul(n, w.q), w.q_bias, config));
    Matrix<T> k = record(trace, "K", plus_bias(matmul(n, w.k), w.k_bias, config));
    Matrix<T> v = record(trace, "V", plus_bias(matmul(n, w.v), w.v_bias, config));
    if (positions.size() != n.rows) throw std::invalid_argument("one position a row is needed");
    const bool qk_norm = config.qk_norm != QkNorm::none;
    if (qk_norm && !config.qk_norm_after_rope) {
        q = record(trace, "Q_normed", qk_normed(q, w.q_norm, config));
        k = record(trace, "K_normed", qk_normed(k, w.k_norm, config));
    }
    // The sequence length dynamic NTK and LongRoPE read: the largest position + 1, as counted
    // (position_off_by_one counts from 1 there too).
    const Rope<T> rope =
        config.rope(positions.empty() ? 0 : static_cast<std::size_t>(positions.back() + 1 + config.position_offset));
    for (std::size_t t = 0; t < n.rows; ++t) {
        RopeTurn<T> turn = rope_turn(rope, T(positions[t] + config.position_offset));
        apply_rope(q.row(t), rope, turn);
        apply_rope(k.row(t), rope, turn);  // V is never rotated
        if (config.rotate_v) apply_rope(v.row(t), rope, turn);
    }
    if (qk_norm && config.qk_norm_after_rope) {  // the slip: normalised after RoPE
        q = qk_normed(q, w.q_norm, config);
        k = qk_normed(k, w.k_norm, config);
    }
    for (std::size_t t = 0; t < n.rows; ++t) cache.append(k.row(t), v.row(t), positions[t]);
    record(trace, "Q_rotated", q);
    record(trace, "K_rotated", k);
    if (rope.score_factor != T(1))  // the scores scaled once more (mistake yarn_attention_factor_on_scores)
        for (T& x : q.values) x *= rope.score_factor;
    const ScoreRule<T> rule = score_rule(config);
    // Without the causal mask (not_causal) every query sees the whole cache.
    const std::vector<long> visible_up_to = config.causal ? std::vector<long>(positions.begin(), positions.end())
                                                          : std::vector<long>(n.rows, cache.positions.back());
    std::vector<Matrix<T>> weights;  // [query_heads][T, cache positions]
    const Matrix<T> heads =
        config.mask_reversed
            ? reversed_mask_attention<T>(q, positions, cache, config.heads(), rule)
            : causal_attention<T>(q, visible_up_to, cache, config.heads(), trace ? &weights : nullptr, rule);
    for (std::size_t h = 0; h < weights.size(); ++h) record(trace, "attention_weights/" + std::to_string(h), weights[h]);
    record(trace, "heads", heads);  // [T, query_heads * d], heads side by side
    return record(trace, "attention_output", matmul(heads, w.o));
}

// FFN sublayer without the residual.  m: [T, C] -> [T, C]
template <class T, class W>
Matrix<T> ffn_sublayer(const BlockConfig<T>& config, const BlockWeights<T, W>& w, const Matrix<T>& m, Trace<T>* trace) {
    const Matrix<T> gate = record(trace, "gate", matmul(m, w.gate));
    const Matrix<T> up = record(trace, "up", matmul(m, w.up));
    const Matrix<T> hidden = record(trace, "hidden", swiglu_hidden(gate, up, config.gate_activation));
    return record(trace, "down", matmul(hidden, w.down));
}

// The weights as a loader with a slip reads them: gate and up swapped (gate_up_swapped), every
// square matrix left transposed (transposed_weights: a loader that transposes a stored [out, in]
// only when its shape does not fit [in, out] cannot tell a square one), or one matrix's buffer
// read in the other order (weight_other_order/q_proj, ...).
template <class T, class W>
BlockWeights<T, W> misread_weights(const BlockConfig<T>& config, BlockWeights<T, W> w) {
    if (config.swap_gate_up) std::swap(w.gate, w.up);
    if (config.swap_k_v) std::swap(w.k, w.v);
    const std::array<W*, 7> matrices = weight_matrices(w);
    for (std::size_t i = 0; i < matrices.size(); ++i) {
        W& m = *matrices[i];
        if (config.transpose_square_weights && m.rows == m.cols) m = transpose(m);
        if (config.weights_in_other_order >> i & 1u) m = other_order(m);
    }
    return w;
}

// A pre-norm residual path: the stream plus its sublayer's output, or a slip's (residual_from_norm:
// the normalised input plus it; residual_forgotten: the output alone).  [T, C] -> [T, C]
template <class T>
Matrix<T> residual(const BlockConfig<T>& config, const Matrix<T>& stream, const Matrix<T>& normed,
                   const Matrix<T>& sublayer) {
    if (config.residual_forgotten) return sublayer;
    return add(config.residual_from_norm ? normed : stream, sublayer);
}

// The gains of a sublayer's input norm and of its output norm (nullptr: none there), as the layer's
// norm_sides says, or swapped (the slip norms_pre_post_swapped: OLMo 2's output norms put on the inputs).
template <class T>
std::pair<const Vector<T>*, const Vector<T>*> sublayer_norms(const BlockConfig<T>& config, const Vector<T>& input,
                                                             const Vector<T>& output) {
    std::pair<const Vector<T>*, const Vector<T>*> gains{config.norm_sides == NormSides::output ? nullptr : &input,
                                                        config.norm_sides == NormSides::input ? nullptr : &output};
    if (config.norms_swapped) std::swap(gains.first, gains.second);
    return gains;
}

// Whether the configuration reads the weights with a slip (misread_weights changes them).
template <class T>
bool misreads_weights(const BlockConfig<T>& config) {
    return config.swap_gate_up || config.swap_k_v || config.transpose_square_weights || config.weights_in_other_order != 0;
}

// The positions start .. start + rows - 1; an invalid_argument when they leave 0 .. LONG_MAX.
inline std::vector<long> consecutive_positions(long start_position, std::size_t rows) {
    if (start_position < 0 || start_position > std::numeric_limits<long>::max() - static_cast<long>(rows))
        throw std::invalid_argument("positions start_position .. start_position + T - 1 out of range");
    std::vector<long> positions(rows);
    std::iota(positions.begin(), positions.end(), start_position);
    return positions;
}

// The block on T new rows at `positions` (one a row, increasing, after the cache's; Hugging Face's
// position_ids), reading and extending the cache.  x: [T, C] -> [T, C]
template <class T, class W>
Matrix<T> block_step(const BlockConfig<T>& config, const BlockWeights<T, W>& w, const Matrix<T>& x,
                     std::span<const long> positions, KvCache<T>& cache, Trace<T>* trace = nullptr) {
    if (misreads_weights(config)) {  // a slip in reading the weights
        BlockConfig<T> reader = config;
        reader.swap_gate_up = reader.swap_k_v = reader.transpose_square_weights = false;
        reader.weights_in_other_order = 0;
        return block_step(reader, misread_weights(config, w), x, positions, cache, trace);
    }
    const T& eps = config.rms_norm_eps;
    const EpsPlacement where = config.eps_placement;
    if (config.pre_norm) {
        // R = X + post(Attn(pre(X))); Y = R + post(FFN(pre(R))), pre and post RMSNorms where the layer has them
        const auto [attn_in, attn_out] = sublayer_norms(config, w.attn_norm, w.attn_out_norm);
        const auto [ffn_in, ffn_out] = sublayer_norms(config, w.ffn_norm, w.ffn_out_norm);
        auto norm = [&](const char* name, const Matrix<T>& rows, const Vector<T>* gains) {
            return gains ? record(trace, name, rms_norm_rows<T>(rows, norm_gains(*gains, config), eps, where)) : rows;
        };
        const Matrix<T> n = norm("N", x, attn_in);
        const Matrix<T> a = norm("attention_normed", attention_sublayer(config, w, n, positions, cache, trace), attn_out);
        const Matrix<T> r = record(trace, "R", residual(config, x, n, a));
        const Matrix<T> m = norm("M", r, ffn_in);
        const Matrix<T> f = norm("down_normed", ffn_sublayer(config, w, m, trace), ffn_out);
        return record(trace, "output", residual(config, r, m, f));
    }
    // Post-norm, for contrast: R = RMSNorm(X + Attn(X)); Y = RMSNorm(R + FFN(R))
    const Matrix<T> r = record(trace, "R",
                               rms_norm_rows<T>(add(x, attention_sublayer(config, w, x, positions, cache, trace)),
                                                norm_gains(w.attn_norm, config), eps, where));
    return record(trace, "output",
                  rms_norm_rows<T>(add(r, ffn_sublayer(config, w, r, trace)), norm_gains(w.ffn_norm, config), eps, where));
}

// The block on T new rows at positions start..start+T-1.  x: [T, C] -> [T, C]
template <class T, class W>
Matrix<T> block_step(const BlockConfig<T>& config, const BlockWeights<T, W>& w, const Matrix<T>& x,
                     long start_position, KvCache<T>& cache, Trace<T>* trace = nullptr) {
    const std::vector<long> positions = consecutive_positions(start_position, x.rows);
    return block_step(config, w, x, std::span<const long>(positions), cache, trace);
}

// The full forward over a fresh cache.  x: [T, C] -> [T, C]
template <class T, class W>
Matrix<T> block_forward(const BlockConfig<T>& config, const BlockWeights<T, W>& w, const Matrix<T>& x,
                        long start_position = 0, Trace<T>* trace = nullptr) {
    KvCache<T> cache;
    return block_step(config, w, x, start_position, cache, trace);
}

}  // namespace blockcheck
