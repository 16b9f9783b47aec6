// Causal multi-head attention with grouped key/value heads (MHA, GQA, MQA).
#pragma once

#include "tensor.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace blockcheck {

// How query heads share key/value heads: kv_heads divides query_heads; equal is MHA,
// one is MQA, anything between is GQA.
struct HeadLayout {
    std::size_t query_heads = 0, kv_heads = 0, head_dim = 0;
    // A classic slip, made on purpose only to diagnose it (mistake wrong_kv_head): head h reads
    // key/value head h mod kv_heads.
    bool round_robin = false;

    std::size_t group_size() const { return query_heads / kv_heads; }
    // Query head h reads key/value head h / (query_heads / kv_heads).
    std::size_t kv_head_of(std::size_t h) const { return round_robin ? h % kv_heads : h / group_size(); }
};

// softmax(s)_j = exp(s_j - max s) / sum_k exp(s_k - max s); subtracting the max keeps every
// exponent <= 0, so nothing overflows.
template <class T>
Vector<T> softmax(std::span<const T> scores) {
    using std::exp;
    T top = *std::max_element(scores.begin(), scores.end());
    Vector<T> weights(scores.size());
    T sum(0);
    for (std::size_t j = 0; j < scores.size(); ++j) sum += weights[j] = exp(scores[j] - top);
    for (T& w : weights) w /= sum;
    return weights;
}

// Keys and values of every position seen so far, with their positions.
template <class T>
struct KvCache {
    std::vector<Vector<T>> k, v;     // [positions][kv_heads * head_dim]
    std::vector<long> positions;

    void append(std::span<const T> k_row, std::span<const T> v_row, long position) {
        k.emplace_back(k_row.begin(), k_row.end());
        v.emplace_back(v_row.begin(), v_row.end());
        positions.push_back(position);
    }
    std::size_t size() const { return positions.size(); }
};

// What a model family changes in the scores (docs/checkpoints.md); the chapter's attention keeps
// the defaults.
template <class T>
struct ScoreRule {
    std::optional<T> scale;    // the scores' factor; none: 1/sqrt(head_dim)
    std::optional<T> softcap;  // c: each scaled score s becomes c tanh(s / c) before the mask (Gemma 2)
    std::size_t window = 0;    // w > 0: query i sees key j only when i - j < w (sliding window)
};

// The keys query position `at` sees: [first, last) of the cache, whose positions increase. Causal:
// positions <= at; with a window w also at - position < w.
template <class T>
std::pair<std::size_t, std::size_t> visible_keys(const KvCache<T>& cache, long at, std::size_t window) {
    std::size_t first = 0, last = 0;
    while (last < cache.size() && cache.positions[last] <= at) ++last;
    if (window > 0)
        while (first < last && at - cache.positions[first] >= static_cast<long>(window)) ++first;
    return {first, last};
}

// c tanh(s / c): a score soft-capped at +-c.
template <class T>
T soft_capped(const T& score, const T& cap) {
    using std::tanh;
    return cap * tanh(score / cap);
}

// Attention of each query row over the cache.  q: [Tq, query_heads * head_dim] at
// positions q_positions -> [Tq, query_heads * head_dim]. Key j is visible to query t iff
// its position is <= the query's (the causal mask, and the window's if the rule has one); scores
// are multiplied by the rule's scale (1/sqrt(head_dim)), then soft-capped if the rule says so.
// weights, when given, receives each head's attention weights: [query_heads][Tq, cache].
template <class T>
Matrix<T> causal_attention(const Matrix<T>& q, std::span<const long> q_positions, const KvCache<T>& cache,
                           const HeadLayout& layout, std::vector<Matrix<T>>* weights = nullptr,
                           const ScoreRule<T>& rule = {}) {
    using std::sqrt;
    const std::size_t d = layout.head_dim;
    const T scale = rule.scale ? *rule.scale : T(1) / sqrt(T(static_cast<long>(d)));
    Matrix<T> out(q.rows, layout.query_heads * d);
    if (weights) weights->assign(layout.query_heads, Matrix<T>(q.rows, cache.size()));
    for (std::size_t h = 0; h < layout.query_heads; ++h) {
        const std::size_t kv = layout.kv_head_of(h) * d;
        for (std::size_t t = 0; t < q.rows; ++t) {
            std::span<const T> query = q.row(t).subspan(h * d, d);
            const auto [first, last] = visible_keys(cache, q_positions[t], rule.window);
            if (first == last) throw std::logic_error("a query with no visible key");
            Vector<T> scores(last - first);
            for (std::size_t j = first; j < last; ++j) {
                scores[j - first] = dot<T>(query, std::span<const T>(cache.k[j]).subspan(kv, d)) * scale;
                if (rule.softcap) scores[j - first] = soft_capped(scores[j - first], *rule.softcap);
            }
            Vector<T> w = softmax<T>(scores);
            for (std::size_t j = first; j < last; ++j) {
                if (weights) (*weights)[h](t, j) = w[j - first];
                for (std::size_t c = 0; c < d; ++c) out(t, h * d + c) += w[j - first] * cache.v[j][kv + c];
            }
        }
    }
    return out;
}

}  // namespace blockcheck
