// The block's properties, measured on the modern configuration with seeded weights and inputs:
// each step is the largest discrepancy between two computations that should agree (or, for
// the controls, that should differ).
#include "solutions/worked/worked.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

using namespace worked;

// max over (m, n) and seeded q, k of |(R_m q) . (R_n k) - q . (R_(n-m) k)|
template <class T>
T rope_identity_gap(const Rope<T>& rope) {
    using std::abs;
    SeededDyadic r(11);
    const long pairs[][2] = {{0, 0}, {3, 5}, {5, 3}, {17, 1000}, {2047, 2}, {1234, 2047}};
    T worst(0);
    for (const auto& [m, n] : pairs) {
        const Vector<T> q = r.vector<T>(rope.head_dim()), k = r.vector<T>(rope.head_dim());
        const T lhs = dot<T>(rope_rotate(q, rope, T(m)), rope_rotate(k, rope, T(n)));
        const T rhs = dot<T>(q, rope_rotate(k, rope, T(n - m)));
        worst = std::max<T>(worst, abs(lhs - rhs));
    }
    return worst;
}

// Rows [first, first + count) of m.
template <class T>
Matrix<T> rows_of(const Matrix<T>& m, std::size_t first, std::size_t count) {
    Matrix<T> out(count, m.cols);
    for (std::size_t r = 0; r < count; ++r)
        for (std::size_t c = 0; c < m.cols; ++c) out(r, c) = m(first + r, c);
    return out;
}

// Multi-head attention against each head run alone: max |difference|.  q, k, v: [T, H d]
template <class T>
T heads_independent_gap(const Matrix<T>& q, const Matrix<T>& k, const Matrix<T>& v, const HeadLayout& layout) {
    const std::size_t d = layout.head_dim;
    std::vector<long> positions(q.rows);
    KvCache<T> cache;
    for (std::size_t t = 0; t < q.rows; ++t) {
        positions[t] = long(t);
        cache.append(k.row(t), v.row(t), long(t));
    }
    const Matrix<T> together = causal_attention<T>(q, positions, cache, layout);
    T worst(0);
    for (std::size_t h = 0; h < layout.query_heads; ++h) {
        const Matrix<T> kh = columns(k, h * d, d), vh = columns(v, h * d, d);
        KvCache<T> alone;
        for (std::size_t t = 0; t < q.rows; ++t) alone.append(kh.row(t), vh.row(t), long(t));
        const Matrix<T> out = causal_attention<T>(columns(q, h * d, d), positions, alone, HeadLayout{1, 1, d});
        worst = std::max<T>(worst, max_abs_difference(out, columns(together, h * d, d)));
    }
    return worst;
}

// The same weights as MHA: each key/value head's columns repeated over its group.
template <class T>
BlockWeights<T> repeat_kv(const BlockWeights<T>& grouped, const HeadLayout& layout, std::size_t hidden) {
    BlockWeights<T> mha = grouped;
    const std::size_t d = layout.head_dim;
    mha.k = mha.v = Matrix<T>(hidden, layout.query_heads * d);
    for (std::size_t h = 0; h < layout.query_heads; ++h)
        for (std::size_t c = 0; c < d; ++c)
            for (std::size_t i = 0; i < hidden; ++i) {
                mha.k(i, h * d + c) = grouped.k(i, layout.kv_head_of(h) * d + c);
                mha.v(i, h * d + c) = grouped.v(i, layout.kv_head_of(h) * d + c);
            }
    return mha;
}

// The Q/K weight columns reordered so that the half layout sees what the interleaved one does:
// half coordinate i holds interleaved 2i, and i + d/2 holds 2i + 1.
template <class T>
BlockWeights<T> permute_for_half(const BlockWeights<T>& w, const BlockConfig<T>& c) {
    BlockWeights<T> out = w;
    const std::size_t d = c.head_dim;
    for (auto [from, to] : {std::pair{&w.q, &out.q}, std::pair{&w.k, &out.k}})
        for (std::size_t head = 0; head < from->cols; head += d)
            for (std::size_t i = 0; i < d / 2; ++i)
                for (std::size_t row = 0; row < from->rows; ++row) {
                    (*to)(row, head + i) = (*from)(row, head + 2 * i);
                    (*to)(row, head + i + d / 2) = (*from)(row, head + 2 * i + 1);
                }
    return out;
}

// Decoding one row at a time through the cache against the full forward.
template <class T>
T kv_cache_gap(const BlockConfig<T>& c, const BlockWeights<T>& w, const Matrix<T>& x, long start) {
    const Matrix<T> full = block_forward(c, w, x, start);
    KvCache<T> cache;
    T worst(0);
    for (std::size_t t = 0; t < x.rows; ++t) {
        const Matrix<T> y = block_step(c, w, rows_of(x, t, 1), start + long(t), cache);
        worst = std::max<T>(worst, max_abs_difference(y, rows_of(full, t, 1)));
    }
    return worst;
}

}  // namespace

template <class T>
Worked<T> block_properties_example(const BlockConfig<T>& modern) {
    Worked<T> w{"properties", {"The block's properties on the modern configuration", "块在现代配置上的性质"},
                {"the block (solutions/block), data/part-v/modern-config.json", "块的实现（solutions/block），data/part-v/modern-config.json"}};
    const std::size_t C = modern.hidden_size;
    const BlockWeights<T> weights = seeded_weights(modern, 1);
    const Matrix<T> x = SeededDyadic(5).matrix<T>(6, C);

    w.difference("rope-identity", {fmt::format("max |(R_m q).(R_n k) - q.(R_(n-m) k)|, head width {}, positions up to 2047", modern.head_dim),
                                   fmt::format("max |(R_m q)·(R_n k) - q·(R_(n-m) k)|，头宽 {}，位置至 2047", modern.head_dim)},
                 rope_identity_gap(modern.rope()));
    w.difference("rope-identity-128", {"the same with 64 frequencies (head width 128, same base)", "同一检查，64 个频率（头宽 128，底数相同）"},
                 rope_identity_gap(make_rope(modern.rope_theta, 128, RopeScaling<T>{}, modern.rope_layout)));

    Matrix<T> changed = x;
    for (std::size_t c = 0; c < C; ++c) changed(4, c) += T(1), changed(5, c) -= T(2);
    const Matrix<T> a = block_forward(modern, weights, x), b = block_forward(modern, weights, changed);
    w.difference("causality/earlier-rows", {"max |change| of output rows 0-3 when input rows 4 and 5 change", "输入第 4、5 行改变时，输出第 0-3 行的最大变化"},
                 max_abs_difference(rows_of(a, 0, 4), rows_of(b, 0, 4)));
    w.difference("causality/later-rows", {"control: max |change| of output rows 4 and 5", "对照：输出第 4、5 行的最大变化"},
                 max_abs_difference(rows_of(a, 4, 2), rows_of(b, 4, 2)));

    SeededDyadic r(13);
    const std::size_t qd = modern.query_heads * modern.head_dim;
    const Matrix<T> q = r.matrix<T>(6, qd), k = r.matrix<T>(6, qd), v = r.matrix<T>(6, qd);
    w.difference("mha/heads-independent", {"kv_heads = query_heads: max |multi-head output - each head run alone|", "kv_heads = query_heads：max |多头输出 - 各头单独计算|"},
                 heads_independent_gap(q, k, v, HeadLayout{modern.query_heads, modern.query_heads, modern.head_dim}));
    for (std::size_t kv = 1; kv < modern.query_heads; ++kv) {  // every grouping short of MHA
        if (modern.query_heads % kv != 0) continue;
        BlockConfig<T> grouped = modern, mha = modern;
        grouped.kv_heads = kv;
        mha.kv_heads = modern.query_heads;
        const BlockWeights<T> gw = seeded_weights(grouped, 9);
        const std::string name = kv == 1 ? "mqa/repeated-kv" : fmt::format("gqa-{}/repeated-kv", kv);
        w.difference(name, {fmt::format("kv_heads = {}: max |block output - MHA with each K/V head repeated over its group|", kv),
                            fmt::format("kv_heads = {}：max |块输出 - 每个 K/V 头在组内重复后的 MHA|", kv)},
                     max_abs_difference(block_forward(grouped, gw, x), block_forward(mha, repeat_kv(gw, grouped.heads(), C), x)));
    }
    w.difference("kv-cache", {"max |one position at a time through the KV cache - full forward|, positions 100-105", "max |经 KV 缓存逐位置计算 - 一次性前向|，位置 100-105"},
                 kv_cache_gap(modern, weights, x, 100));

    const T s = parse_real<T>("12.5");
    BlockConfig<T> linear = modern, ntk = modern;
    linear.rope_scaling = {RopeScalingType::linear, s};
    ntk.rope_scaling = {RopeScalingType::ntk, s};
    const Vector<T> row = SeededDyadic(17).vector<T>(modern.head_dim);
    T linear_gap(0);
    for (long p : {1L, 8L, 100L, 2047L})
        linear_gap = std::max<T>(linear_gap, max_abs_difference<T>(rope_rotate(row, linear.rope(), T(p)), rope_rotate(row, modern.rope(), T(p) / s)));
    w.difference("linear-scaling", {"max |R(p) x with linear scaling 12.5 - R(p / 12.5) x unscaled|", "max |线性缩放 12.5 的 R(p) x - 不缩放的 R(p / 12.5) x|"}, linear_gap);
    const Vector<T> plain_inv = modern.rope().inverse_frequencies, ntk_inv = ntk.rope().inverse_frequencies;
    w.number("ntk/pair-0-ratio", {"NTK, factor 12.5: pair 0's frequency over the unscaled one", "NTK，倍数 12.5：坐标对 0 的频率与未缩放之比"}, ntk_inv.front() / plain_inv.front());
    w.number("ntk/last-pair-slow-down", {"NTK: the last pair's unscaled frequency over its scaled one", "NTK：最后一个坐标对未缩放频率与缩放后之比"}, plain_inv.back() / ntk_inv.back());

    T scale_gap(0);
    for (std::size_t t = 0; t < x.rows; ++t) {
        const Vector<T> row_t(x.row(t).begin(), x.row(t).end());
        scale_gap = std::max<T>(scale_gap, max_abs_difference<T>(rms_norm<T>(scaled(row_t, T(7) / T(3)), weights.attn_norm, T(0)),
                                                                 rms_norm<T>(row_t, weights.attn_norm, T(0))));
    }
    w.difference("rms-norm-scale", {"eps 0: max |RMSNorm(7/3 x) - RMSNorm(x)| over the input rows", "eps 0：各输入行上 max |RMSNorm(7/3 x) - RMSNorm(x)|"}, scale_gap);

    Trace<T> at_0, at_37;
    block_forward(modern, weights, x, 0, &at_0);
    block_forward(modern, weights, x, 37, &at_37);
    w.difference("v-unrotated", {"max |V at positions 0-5 - V at positions 37-42|: V is never rotated", "max |位置 0-5 的 V - 位置 37-42 的 V|：V 不旋转"},
                 max_abs_difference(at_0.at("V"), at_37.at("V")));
    w.difference("q-rotated-moves", {"control: max |rotated Q at positions 0-5 - at 37-42|", "对照：max |位置 0-5 旋转后的 Q - 位置 37-42 的|"},
                 max_abs_difference(at_0.at("Q_rotated"), at_37.at("Q_rotated")));

    BlockConfig<T> half = modern;
    half.rope_layout = modern.rope_layout == RopeLayout::half ? RopeLayout::interleaved : RopeLayout::half;
    const BlockConfig<T>& inter = modern.rope_layout == RopeLayout::interleaved ? modern : half;
    const BlockConfig<T>& halves = modern.rope_layout == RopeLayout::interleaved ? half : modern;
    w.difference("layouts", {"max |block output, interleaved pairs - half pairs with the Q/K columns permuted alike|",
                             "max |块输出：交错配对 - 对 Q/K 列做同样重排后的 half 配对|"},
                 max_abs_difference(block_forward(inter, weights, x, 40), block_forward(halves, permute_for_half(weights, modern), x, 40)));
    return w;
}

template Worked<Mpfr50> block_properties_example<Mpfr50>(const BlockConfig<Mpfr50>&);
template Worked<Mpfr100> block_properties_example<Mpfr100>(const BlockConfig<Mpfr100>&);

}  // namespace blockcheck
