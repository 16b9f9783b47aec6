// Chapter 25's worked examples as named steps: tables 25.1 and 25.2, examples 25.2 and 25.3,
// the exercises' reference answers, the modern configuration and the block of figure 25.1.
#include "solutions/worked/worked.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

using namespace worked;

Text section(const char* en, const char* zh) { return {fmt::format("chapter 25, {}", en), fmt::format("第 25 章，{}", zh)}; }

// ---- 25.1: rotations ----

// Turns q to position m and k to position n; records both, their dot product and the
// right-hand side q . R_(n-m) k of the relative-position identity.
template <class T>
void add_rotation_pair(Worked<T>& w, const std::string& name, const Rope<T>& rope, const Vector<T>& q,
                       const Vector<T>& k, long m, long n) {
    const Vector<T> rq = rope_rotate(q, rope, T(m)), rk = rope_rotate(k, rope, T(n));
    w.vector(name + "/query", {fmt::format("query turned to position {}", m), fmt::format("转到位置 {} 的查询", m)}, rq);
    w.vector(name + "/key", {fmt::format("key turned to position {}", n), fmt::format("转到位置 {} 的键", n)}, rk);
    w.number(name + "/dot", {"unscaled dot product of the two turned vectors (no 1/sqrt(d), no softmax)",
                             "两支旋转后向量的点积，未缩放（不除以 sqrt(d)，不做 Softmax）"},
             dot<T>(rq, rk));
    w.number(name + "/relative",
             {fmt::format("q . R_(n-m) k with n - m = {}: the key turned by the difference only", n - m),
              fmt::format("q · R_(n-m) k，n - m = {}：只把键转过位置差", n - m)},
             dot<T>(q, rope_rotate(k, rope, T(n - m))));
}

// The attention weight that query position `query_at` gives key position `key_at` when keys
// sit at positions 0 .. max(query_at, key_at): zero exactly when the causal mask hides the key.
template <class T>
T causal_weight(const Rope<T>& rope, const Vector<T>& q, const Vector<T>& k, long query_at, long key_at) {
    KvCache<T> cache;
    for (long p = 0; p <= std::max(query_at, key_at); ++p) {
        const Vector<T> turned = rope_rotate(k, rope, T(p));
        cache.append(turned, turned, p);
    }
    const Matrix<T> query = matrix_from_rows<T>({rope_rotate(q, rope, T(query_at))});  // [1, d]
    const long positions[] = {query_at};
    std::vector<Matrix<T>> weights;
    causal_attention<T>(query, positions, cache, HeadLayout{1, 1, q.size()}, &weights);
    return weights[0](0, static_cast<std::size_t>(key_at));
}

// ---- 25.2: normalisations with unit gains, no bias, epsilon 0 unless given ----

template <class T>
Vector<T> rms_norm_unit(const Vector<T>& x, const T& eps = T(0)) {
    return rms_norm<T>(x, Vector<T>(x.size(), T(1)), eps);
}

template <class T>
Vector<T> layer_norm_unit(const Vector<T>& x) {
    return layer_norm<T>(x, Vector<T>(x.size(), T(1)), Vector<T>(x.size(), T(0)), T(0));
}

// The hand computation of example 25.2 for one row: squares, their mean, the root mean
// square, the quotients, and the mean square after normalising (one).
template <class T>
void add_rms_norm_steps(Worked<T>& w, const std::string& name, const Vector<T>& x) {
    Vector<T> squares(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) squares[i] = x[i] * x[i];
    const T rms = root_mean_square<T>(x);
    const Vector<T> y = rms_norm_unit(x);
    const T rms_after = root_mean_square<T>(y);
    w.vector(name + "/input", {"the token row", "token 行"}, x);
    w.vector(name + "/squares", {"each coordinate squared", "每个坐标的平方"}, squares);
    w.number(name + "/mean-square", {"mean of the squares (divided by the row's coordinate count)",
                                     "平方的平均（除以这一行的坐标数）"},
             rms * rms);
    w.number(name + "/rms", {"root mean square: the common denominator", "均方根：共同的分母"}, rms);
    w.vector(name + "/rms-norm", {"RMSNorm: each coordinate divided by the root mean square (gain 1, eps 0)",
                                  "RMSNorm：每个坐标除以均方根（缩放系数 1，epsilon 0）"},
             y);
    w.number(name + "/mean-square-after", {"mean of the squares after normalising", "归一化后平方的平均"},
             rms_after * rms_after);
}

template <class T>
void add_zero_row_step(Worked<T>& w, const std::string& name, const Vector<T>& zero) {
    const Text what{"RMSNorm of an all-zero row with epsilon 0", "全零行在 epsilon 为 0 时的 RMSNorm"};
    try {
        w.vector(name, what, rms_norm_unit(zero));
    } catch (const UndefinedNorm&) {
        w.undefined(name, what);
    }
}

// ---- figure 25.1 ----

// The heads again from the trace alone: head h's row t is sum_j weights_h(t, j) V_j over the
// columns of its key/value head, so the traced weights are checked against the traced heads.
// -> [T, query_heads * d]
template <class T>
Matrix<T> heads_from_weights(const BlockConfig<T>& c, const Trace<T>& trace) {
    const Matrix<T>& v = trace.at("V");  // [T, kv_heads * d]
    const HeadLayout layout = c.heads();
    const std::size_t d = c.head_dim;
    Matrix<T> heads(v.rows, c.query_heads * d);
    for (std::size_t h = 0; h < c.query_heads; ++h) {
        const Matrix<T>& weights = trace.at(fmt::format("attention_weights/{}", h));  // [T, T]
        const std::size_t kv = layout.kv_head_of(h) * d;
        for (std::size_t t = 0; t < weights.rows; ++t)
            for (std::size_t j = 0; j < weights.cols; ++j)
                for (std::size_t i = 0; i < d; ++i) heads(t, h * d + i) += weights(t, j) * v(j, kv + i);
    }
    return heads;
}

}  // namespace

template <class T>
Worked<T> rope_quarter_turn_example(const BlockConfig<T>& modern) {
    using std::abs;
    Worked<T> w{"25.1",
                {"Example 25.1, table 25.1: relative position from two rotations",
                 "例 25.1、表 25.1：用两次旋转表示相对位置"},
                section("25.1, table 25.1, exercise 25.6-1", "25.1、表 25.1、习题 25.6-1")};
    const Rope<T> quarter = fixed_angle_rope(pi<T>() / T(2));
    const Vector<T> q{T(1), T(0)}, k{T(1), T(0)};
    w.number("turn-degrees", {"angle of one position step, in degrees (a quarter turn)", "每前进一个位置转过的角度（度）：四分之一圈"},
             degrees(rope_angle(quarter, 0, T(1))));
    const long table[4][2] = {{0, 0}, {0, 1}, {1, 2}, {0, 2}};
    for (int r = 0; r < 4; ++r) add_rotation_pair(w, fmt::format("row-{}", r + 1), quarter, q, k, table[r][0], table[r][1]);
    w.vector("position-4/query", {"the query turned to position 4: back where position 0 was", "转到位置 4 的查询：回到位置 0 的方向"},
             rope_rotate(q, quarter, T(4)));
    w.number("mask/query-0-key-1", {"attention weight of the query at 0 on the key at 1 (causal mask)",
                                    "位置 0 的查询给位置 1 的键的注意力权重（因果掩码）"},
             causal_weight(quarter, q, k, 0, 1));

    // Exercise 25.6-1: positions 2 and 3.
    add_rotation_pair(w, "exercise-1", quarter, q, k, 2, 3);
    w.number("exercise-1/relative-degrees", {"relative turn between the key at 3 and the query at 2, in degrees",
                                             "位置 3 的键与位置 2 的查询之间的相对转角（度）"},
             degrees(rope_angle(quarter, 0, T(3)) - rope_angle(quarter, 0, T(2))));
    w.number("exercise-1/query-2-key-3", {"attention weight of the query at 2 on the key at 3 (causal mask)",
                                          "位置 2 的查询给位置 3 的键的注意力权重（因果掩码）"},
             causal_weight(quarter, q, k, 2, 3));

    // The same comparisons with the modern configuration's frequencies.
    const Rope<T> rope = modern.rope();
    w.vector("multi/inverse-frequencies",
             {fmt::format("radians per position of each pair: theta^(-2i/d), theta {}, d {}", to_decimal(modern.rope_theta, 8), modern.head_dim),
              fmt::format("每个坐标对每个位置转过的弧度：theta^(-2i/d)，theta {}，d {}", to_decimal(modern.rope_theta, 8), modern.head_dim)},
             rope.inverse_frequencies);
    Vector<T> q_multi(rope.head_dim(), T(0));
    for (std::size_t i = 0; i < rope.inverse_frequencies.size(); ++i) q_multi[rope_pair(rope.layout, i, rope.head_dim()).first] = T(1);
    for (int r = 0; r < 4; ++r)
        add_rotation_pair(w, fmt::format("multi/row-{}", r + 1), rope, q_multi, q_multi, table[r][0], table[r][1]);
    w.difference("multi/same-distance-gap", {"|dot(row 2) - dot(row 3)|: both rows are one position apart",
                                             "|点积(第 2 行) - 点积(第 3 行)|：两行的位置差都是一"},
                 abs(w.step("multi/row-2/dot").value(0, 0) - w.step("multi/row-3/dot").value(0, 0)));
    return w;
}

template <class T>
Worked<T> rms_norm_example() {
    using std::abs;
    Worked<T> w{"25.2",
                {"Example 25.2: RMSNorm's denominator, LayerNorm for contrast",
                 "例 25.2：RMSNorm 的分母，与 LayerNorm 对比"},
                section("25.2, exercises 25.6-2 and 25.6-3", "25.2、习题 25.6-2 与 25.6-3")};
    const Vector<T> row{T(3), T(4)}, shifted{T(4), T(5)};
    add_rms_norm_steps(w, "row", row);
    add_rms_norm_steps(w, "shifted", shifted);
    w.vector("row/layer-norm", {"LayerNorm of [3, 4] (gain 1, no bias, eps 0)", "[3, 4] 的 LayerNorm（缩放 1，无偏移，eps 0）"},
             layer_norm_unit(row));
    w.vector("shifted/layer-norm", {"LayerNorm of [4, 5]: the same, the mean is subtracted", "[4, 5] 的 LayerNorm：相同，均值已减去"},
             layer_norm_unit(shifted));

    const T eps = parse_real<T>("0.000001");
    w.difference("scale/eps-0", {"max |RMSNorm(10 x) - RMSNorm(x)| for x = [3, 4], eps 0: the factor cancels",
                                 "x = [3, 4]、eps 0 时 max |RMSNorm(10 x) - RMSNorm(x)|：倍数抵消"},
                 max_abs_difference<T>(rms_norm_unit(scaled(row, T(10))), rms_norm_unit(row)));
    w.difference("scale/eps-positive",
                 {"max |RMSNorm(x / 1000) - RMSNorm(x)| for x = [3, 4], eps 0.000001: only approximately cancelled",
                  "x = [3, 4]、eps 0.000001 时 max |RMSNorm(x / 1000) - RMSNorm(x)|：只能近似抵消"},
                 max_abs_difference<T>(rms_norm_unit(scaled(row, T(1) / T(1000)), eps), rms_norm_unit(row, eps)));
    add_zero_row_step(w, "zero-row/eps-0", Vector<T>{T(0), T(0)});
    w.vector("zero-row/eps-positive", {"RMSNorm of [0, 0] with the configuration's eps 0.000001", "[0, 0] 在配置的 eps 0.000001 下的 RMSNorm"},
             rms_norm_unit(Vector<T>{T(0), T(0)}, eps));

    // Exercise 25.6-2: [0, 2].
    add_rms_norm_steps(w, "exercise-2", Vector<T>{T(0), T(2)});
    Vector<T> y = rms_norm_unit(Vector<T>{T(0), T(2)});
    for (T& v : y) v *= v;
    w.vector("exercise-2/rms-norm-squared", {"the RMSNorm result squared: [0, sqrt 2] squared is [0, 2]", "RMSNorm 结果的平方：[0, sqrt 2] 的平方是 [0, 2]"}, y);
    add_zero_row_step(w, "exercise-2/zero-row", Vector<T>{T(0), T(0)});

    // Exercise 25.6-3: add ten to both coordinates of [3, 4].
    const Vector<T> plus_ten{T(13), T(14)};
    w.vector("exercise-3/rms-norm", {"RMSNorm of [13, 14]", "[13, 14] 的 RMSNorm"}, rms_norm_unit(plus_ten));
    w.difference("exercise-3/rms-norm-change", {"max |RMSNorm([13, 14]) - RMSNorm([3, 4])|: the shift changes the result",
                                                "max |RMSNorm([13, 14]) - RMSNorm([3, 4])|：平移改变了结果"},
                 max_abs_difference<T>(rms_norm_unit(plus_ten), rms_norm_unit(row)));
    w.vector("exercise-3/layer-norm", {"LayerNorm of [13, 14]", "[13, 14] 的 LayerNorm"}, layer_norm_unit(plus_ten));
    return w;
}

template <class T>
Worked<T> swiglu_example() {
    Worked<T> w{"25.3", {"Example 25.3: a two-dimensional SwiGLU FFN", "例 25.3：二维门控 FFN"},
                section("25.3, exercise 25.6-4", "25.3、习题 25.6-4")};
    const Matrix<T> x = matrix_from_rows<T>({{T(1), T(-1)}});                    // [1, C]
    const Matrix<T> w_gate = matrix_from_rows<T>({{T(1), T(0)}, {T(0), T(1)}});  // [C, F]
    const Matrix<T> w_up = matrix_from_rows<T>({{T(2), T(0)}, {T(0), T(-3)}});   // [C, F]
    const Matrix<T> w_down = matrix_from_rows<T>({{T(1), T(0)}, {T(1), T(1)}});  // [F, C]
    const Matrix<T> identity = matrix_from_rows<T>({{T(1), T(0)}, {T(0), T(1)}});

    const Matrix<T> gate = matmul(x, w_gate), up = matmul(x, w_up);  // [1, F]
    w.vector("gate", {"gate projection x W_g", "门控投影 x W_g"}, gate.values, "[1, 2]");
    w.vector("up", {"up projection x W_u", "另一条投影 x W_u"}, up.values, "[1, 2]");
    w.number("silu-at-1", {"SiLU(1) = 1 / (1 + e^-1) = e / (1 + e)", "SiLU(1) = 1 / (1 + e^-1) = e / (1 + e)"}, silu(T(1)));
    w.number("silu-at-minus-1", {"SiLU(-1) = -1 / (1 + e)", "SiLU(-1) = -1 / (1 + e)"}, silu(T(-1)));
    w.number("relu-at-minus-1", {"ReLU(-1), for contrast: zero where SiLU keeps a small negative value",
                                 "对比 ReLU(-1)：为零，而 SiLU 保留一个较小的负值"},
             relu(T(-1)));
    Vector<T> silu_gate(gate.values.size());
    for (std::size_t i = 0; i < silu_gate.size(); ++i) silu_gate[i] = silu(gate.values[i]);
    w.vector("silu", {"SiLU of the gate branch", "门控支路的 SiLU"}, silu_gate, "[1, 2]");
    const Matrix<T> hidden = swiglu_hidden(gate, up);
    w.vector("hidden", {"SiLU(x W_g) ⊙ x W_u: element by element, not all pairs", "SiLU(x W_g) ⊙ x W_u：逐项相乘，不是两两全乘"},
             hidden.values, "[1, 2]");
    w.vector("ffn", {"down projection: (SiLU(x W_g) ⊙ x W_u) W_d", "下投影：(SiLU(x W_g) ⊙ x W_u) W_d"},
             swiglu_ffn(x, w_gate, w_up, w_down).values, "[1, 2]");
    w.vector("identity-down/ffn", {"exercise 25.6-4: the same FFN with W_d the identity", "习题 25.6-4：把 W_d 换成单位矩阵"},
             swiglu_ffn(x, w_gate, w_up, identity).values, "[1, 2]");
    return w;
}

template <class T>
Worked<T> ffn_count_example() {
    Worked<T> w{"table-25.2", {"Table 25.2: FFN matrix parameters, same width or same budget", "表 25.2：隐藏宽度相同与参数预算相同"},
                section("table 25.2, exercise 25.6-5", "表 25.2、习题 25.6-5")};
    w.integer("relu-12-48", {"ReLU FFN, two matrices: 2 x 12 x 48", "ReLU FFN，两份矩阵：2 x 12 x 48"}, relu_ffn_parameters(12, 48));
    w.integer("swiglu-12-48", {"SwiGLU FFN, three matrices: 3 x 12 x 48", "SwiGLU FFN，三份矩阵：3 x 12 x 48"}, swiglu_ffn_parameters(12, 48));
    w.integer("swiglu-12-32", {"SwiGLU FFN at width 32: 3 x 12 x 32", "隐藏宽度 32 的 SwiGLU FFN：3 x 12 x 32"}, swiglu_ffn_parameters(12, 32));
    w.integer("matching-width-48", {"SwiGLU width with the ReLU budget of width 48: 3 C F' = 2 C 48", "与宽度 48 的 ReLU 预算相同的 SwiGLU 宽度：3 C F' = 2 C 48"},
              swiglu_width_matching_relu(48));
    w.number("same-width-ratio", {"SwiGLU over ReLU parameters at the same width 48", "同为宽度 48 时 SwiGLU 与 ReLU 参数之比"},
             ratio<T>(swiglu_ffn_parameters(12, 48), relu_ffn_parameters(12, 48)));
    w.integer("exercise-5/relu-24-96", {"exercise 25.6-5: ReLU, 2 x 24 x 96", "习题 25.6-5：ReLU，2 x 24 x 96"}, relu_ffn_parameters(24, 96));
    w.integer("exercise-5/matching-width", {"the gated width with the same budget", "预算相同的门控隐藏宽度"}, swiglu_width_matching_relu(96));
    w.integer("exercise-5/swiglu-24-64", {"SwiGLU at that width: 3 x 24 x 64", "该宽度的 SwiGLU：3 x 24 x 64"},
              swiglu_ffn_parameters(24, swiglu_width_matching_relu(96)));
    w.integer("exercise-5/swiglu-24-96", {"SwiGLU kept at width 96: 3 x 24 x 96", "仍用宽度 96 的 SwiGLU：3 x 24 x 96"}, swiglu_ffn_parameters(24, 96));
    w.number("exercise-5/increase", {"that budget over the ReLU budget", "该预算与 ReLU 预算之比"},
             ratio<T>(swiglu_ffn_parameters(24, 96), relu_ffn_parameters(24, 96)));
    return w;
}

template <class T>
Worked<T> modern_config_example(const ConfigFacts<T>& facts) {
    const BlockConfig<T>& c = facts.config;
    Worked<T> w{"25.4", {"Section 25.4: the modern configuration's fields fit together", "25.4：现代配置的各字段相互吻合"},
                section("25.4, data/part-v/modern-config.json", "25.4，data/part-v/modern-config.json")};
    const Count C = c.hidden_size, H = c.query_heads, KV = c.kv_heads, d = c.head_dim, F = c.ffn_hidden_size;
    w.integer("hidden-size", {"hidden_size: coordinates of a token row", "hidden_size：一个 token 行的坐标数"}, C);
    w.integer("query-heads", {"query_heads", "query_heads"}, H);
    w.integer("head-dim", {"head_dim: coordinates per head", "head_dim：每个头的坐标数"}, d);
    w.integer("heads-times-width", {"query_heads x head_dim", "query_heads x head_dim"}, H * d);
    w.boolean("heads-fill-row", {"query_heads x head_dim equals hidden_size", "query_heads x head_dim 等于 hidden_size"}, H * d == C);
    w.integer("kv-heads", {"kv_heads", "kv_heads"}, KV);
    w.integer("group-size", {"query heads per key/value head (1: plain multi-head attention)", "每个键值头对应的查询头数（1 即普通多头注意力）"},
              c.heads().group_size());
    w.integer("ffn-hidden-size", {"ffn_hidden_size: width of both the gate and the up branch", "ffn_hidden_size：门控支路与上投影支路共同的宽度"}, F);
    w.integers("gate-shape", {"gate matrix [C, F]", "门控矩阵 [C, F]"}, {C, F});
    w.integers("up-shape", {"up matrix [C, F]", "上投影矩阵 [C, F]"}, {C, F});
    w.integers("down-shape", {"down matrix [F, C]", "下投影矩阵 [F, C]"}, {F, C});
    w.integer("swiglu-parameters", {"SwiGLU matrix parameters 3 C F", "SwiGLU 矩阵参数 3 C F"}, swiglu_ffn_parameters(C, F));
    w.integer("relu-budget", {"the budget of table 25.2's ReLU FFN of width 48: 2 C 48", "表 25.2 中宽度 48 的 ReLU FFN 预算：2 C 48"},
              relu_ffn_parameters(C, 48));
    w.boolean("ffn-matches-budget", {"3 C F equals 2 C 48", "3 C F 等于 2 C 48"}, swiglu_ffn_parameters(C, F) == relu_ffn_parameters(C, 48));
    const BlockParameters p = block_parameters(C, H, KV, d, F);
    w.integers("parameters", {"block parameters: attention (Q, K, V, O), FFN, norm gains, total", "块参数：注意力（Q、K、V、O）、FFN、归一化缩放、合计"},
               {p.attention(), p.ffn(), p.norms(), p.total()});
    w.number("rope-theta", {"rope_theta: base of the frequency plan", "rope_theta：多频率安排的底数"}, c.rope_theta);
    w.vector("rope-inverse-frequencies", {"radians per position of each pair", "每个坐标对每个位置转过的弧度"}, c.rope().inverse_frequencies);
    w.number("rms-norm-eps", {"rms_norm_eps, added under the root", "rms_norm_eps，加在根号内"}, c.rms_norm_eps);
    w.boolean("pre-norm", {"pre_norm: normalise each sublayer's input", "pre_norm：对每个子层的输入做归一化"}, c.pre_norm);
    w.boolean("bias", {"bias", "bias"}, facts.bias);
    w.integer("max-sequence-slots", {"max_sequence_slots: declared capacity, not a measured context", "max_sequence_slots：声明的容量，不是实测的上下文"},
              facts.max_sequence_slots);
    return w;
}

template <class T>
Worked<T> block_trace_example(const BlockConfig<T>& c, const BlockWeights<T>& weights, const Matrix<T>& x,
                              long start_position) {
    Worked<T> w{"figure-25.1", {"Figure 25.1: the modern block on a small input", "图 25.1：现代块在小输入上的计算"},
                section("25.4, figure 25.1, data/cases/modern-small.json", "25.4、图 25.1，data/cases/modern-small.json")};
    Trace<T> trace;
    const Matrix<T> y = block_forward(c, weights, x, start_position, &trace);
    const std::size_t rows = x.rows, C = c.hidden_size, d = c.head_dim;
    const std::string row = fmt::format("[1, {}, {}]", rows, C);
    const std::string q_heads = fmt::format("[1, {}, {}×{}]", rows, c.query_heads, d);
    const std::string kv_heads = fmt::format("[1, {}, {}×{}]", rows, c.kv_heads, d);
    const std::string hidden = fmt::format("[1, {}, {}]", rows, c.ffn_hidden_size);

    w.matrix("X", {fmt::format("input rows X at positions {}..{}", start_position, start_position + long(rows) - 1),
                   fmt::format("输入行 X，位置 {}..{}", start_position, start_position + long(rows) - 1)}, x, row);
    w.matrix("N", {"RMSNorm of each row over its 12 coordinates (attention norm gains)", "每行沿 12 个坐标做 RMSNorm（注意力前的缩放系数）"},
             trace.at("N"), row);
    w.matrix("Q", {"Q = N W_q, read as heads side by side", "Q = N W_q，按头并排"}, trace.at("Q"), q_heads);
    w.matrix("K", {"K = N W_k", "K = N W_k"}, trace.at("K"), kv_heads);
    w.matrix("V", {"V = N W_v (never rotated)", "V = N W_v（不旋转）"}, trace.at("V"), kv_heads);
    w.matrix("Q-rotated", {"Q with every coordinate pair of every head turned to its position", "Q 的每个头、每个坐标对按位置旋转"},
             trace.at("Q_rotated"), q_heads);
    w.matrix("K-rotated", {"K turned the same way", "K 按同样方式旋转"}, trace.at("K_rotated"), kv_heads);

    for (std::size_t h = 0; h < c.query_heads; ++h)
        w.matrix(fmt::format("weights/head-{}", h),
                 {fmt::format("causal attention weights of head {}: softmax(q k / sqrt({})) over visible keys, zero above the diagonal", h, d),
                  fmt::format("第 {} 个头的因果注意力权重：对可见键做 softmax(q k / sqrt({}))，对角线以上为零", h, d)},
                 trace.at(fmt::format("attention_weights/{}", h)), fmt::format("[{}, {}]", rows, rows));
    w.matrix("heads", {"each head's weighted sum of V, heads concatenated", "每个头对 V 的加权和，各头拼接"}, trace.at("heads"), q_heads);
    w.difference("heads-recomputed", {"max |each head's traced weights times V - traced heads|", "max |每个头记录的权重乘 V - 块记录的头输出|"},
                 max_abs_difference(heads_from_weights(c, trace), trace.at("heads")));
    w.matrix("attention-output", {"output projection: heads W_o", "输出投影：heads W_o"}, trace.at("attention_output"), row);
    w.matrix("R", {"residual: R = X + heads W_o", "残差：R = X + heads W_o"}, trace.at("R"), row);
    w.matrix("M", {"second RMSNorm, of R (FFN norm gains)", "第二次 RMSNorm，作用于 R（FFN 前的缩放系数）"}, trace.at("M"), row);
    w.matrix("gate", {"gate branch M W_gate", "门控支路 M W_gate"}, trace.at("gate"), hidden);
    w.matrix("up", {"up branch M W_up", "上投影支路 M W_up"}, trace.at("up"), hidden);
    w.matrix("hidden", {"SiLU(gate) ⊙ up, element by element", "SiLU(门控) ⊙ 上投影，逐项相乘"}, trace.at("hidden"), hidden);
    w.matrix("down", {"down projection hidden W_down, back to 12", "下投影 hidden W_down，回到 12"}, trace.at("down"), row);
    w.matrix("output", {"block output: R + down projection", "块输出：R + 下投影"}, y, row);
    w.integer("hidden-width", {"coordinates of each FFN hidden row", "FFN 隐藏行的坐标数"}, trace.at("hidden").cols);
    w.integer("output-width", {"coordinates of each output row (the residual width)", "输出行的坐标数（残差宽度）"}, y.cols);
    return w;
}

#define BLOCKCHECK_WORKED_CH25(T)                                                                           \
    template Worked<T> rope_quarter_turn_example<T>(const BlockConfig<T>&);                                 \
    template Worked<T> rms_norm_example<T>();                                                               \
    template Worked<T> swiglu_example<T>();                                                                 \
    template Worked<T> ffn_count_example<T>();                                                              \
    template Worked<T> modern_config_example<T>(const ConfigFacts<T>&);                                     \
    template Worked<T> block_trace_example<T>(const BlockConfig<T>&, const BlockWeights<T>&, const Matrix<T>&, long);
BLOCKCHECK_WORKED_CH25(Mpfr50)
BLOCKCHECK_WORKED_CH25(Mpfr100)

}  // namespace blockcheck
