// The companion article's examples as named steps: the 30-degree stamp, Position
// Interpolation, NTK-aware scaling, grouped heads and the KV cache, the SiLU branch, attention
// without position, and its NumPy RoPE-attention demo redone on seeded inputs.
#include "solutions/rope_demo.hpp"
#include "solutions/worked/worked.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

using namespace worked;

Text gqa_long_context_section(const char* en, const char* zh) {
    return {fmt::format("companion article, {}", en), fmt::format("配套文章，{}", zh)};
}

template <class T>
Rope<T> stamp_rope() {
    return fixed_angle_rope(radians(T(30)));
}

template <class T>
bool same_turn(const Rope<T>& rope, long a, long b) {
    const Vector<T> pointer{T(1), T(0)};
    return max_abs_difference<T>(rope_rotate(pointer, rope, T(a)), rope_rotate(pointer, rope, T(b))) < negligible<T>();
}

// The output of one query at the last position over tokens placed in `order`: token order[p]
// sits at position p. With `rope`, keys and the query are turned to their positions.
template <class T>
Vector<T> attend_in_order(const Vector<T>& query, const Matrix<T>& keys, const Matrix<T>& values,
                          const std::vector<std::size_t>& order, const Rope<T>* rope) {
    KvCache<T> cache;
    for (std::size_t p = 0; p < order.size(); ++p) {
        Vector<T> key(keys.row(order[p]).begin(), keys.row(order[p]).end());
        if (rope) key = rope_rotate(key, *rope, T(long(p)));
        cache.append(key, values.row(order[p]), long(p));
    }
    const long last = long(order.size()) - 1;
    const Matrix<T> q = matrix_from_rows<T>({rope ? rope_rotate(query, *rope, T(last)) : query});
    const long positions[] = {last};
    return causal_attention<T>(q, positions, cache, HeadLayout{1, 1, query.size()}).values;
}

// Radians each pair turns between two neighbouring positions.
template <class T>
Vector<T> neighbour_turns(const Rope<T>& rope) {
    Vector<T> turns(rope.inverse_frequencies.size());
    for (std::size_t i = 0; i < turns.size(); ++i) turns[i] = rope_angle(rope, i, T(1)) - rope_angle(rope, i, T(0));
    return turns;
}

}  // namespace

template <class T>
Worked<T> stamp_example() {
    Worked<T> w{"gqa_long_context-stamp", {"The rotating stamp: 30 degrees a position", "旋转印章：每个位置转 30 度"},
                gqa_long_context_section("RoPE principle, RoPE extrapolation", "RoPE原理、RoPE外推")};
    const Rope<T> stamp = stamp_rope<T>();
    w.number("degrees-per-position", {"degrees the stamp turns per position", "印章每个位置转过的度数"},
             degrees(rope_angle(stamp, 0, T(1))));
    Vector<T> angles(8);
    for (long p = 1; p <= 8; ++p) angles[p - 1] = degrees(rope_angle(stamp, 0, T(p)));
    w.vector("angles-1-to-8", {"stamp angle of packages 1 to 8 (the article counts from 1)", "第 1 到第 8 个包裹的印章角度（文章从 1 数起）"}, angles);
    w.number("angle-at-8", {"angle after 8 packages: the largest seen in training", "第 8 个包裹的角度：训练中见过的最大角度"}, angles.back());
    Matrix<T> relative(8, 8), dots(8, 8);
    const Vector<T> pointer{T(1), T(0)};
    for (long m = 1; m <= 8; ++m)
        for (long n = 1; n <= 8; ++n) {
            relative(m - 1, n - 1) = degrees(rope_angle(stamp, 0, T(n)) - rope_angle(stamp, 0, T(m)));
            dots(m - 1, n - 1) = dot<T>(rope_rotate(pointer, stamp, T(m)), rope_rotate(pointer, stamp, T(n)));
        }
    w.matrix("relative-degrees", {"row m, column n: the angle between the pointers of packages m and n, (n - m) x 30",
                                  "第 m 行第 n 列：第 m 与第 n 个包裹指针的夹角，(n - m) x 30"}, relative, "[8, 8]");
    w.matrix("pointer-dots", {"row m, column n: dot product of the two stamped pointers [1, 0]", "第 m 行第 n 列：两支盖过印章的指针 [1, 0] 的点积"}, dots, "[8, 8]");
    T spread(0);
    for (long gap = 0; gap < 8; ++gap) {
        const T first = dot<T>(rope_rotate(pointer, stamp, T(1)), rope_rotate(pointer, stamp, T(1 + gap)));
        for (long m = 1; m + gap <= 100; ++m) {
            using std::abs;
            spread = std::max<T>(spread, abs(dot<T>(rope_rotate(pointer, stamp, T(m)), rope_rotate(pointer, stamp, T(m + gap))) - first));
        }
    }
    w.difference("dot-spread", {"largest change of the dot product among pairs with the same difference, positions 1 to 100",
                                "位置 1 到 100 中，位置差相同的各对之间点积的最大变化"}, spread);

    Count period = 1;
    while (!same_turn(stamp, 0, long(period))) ++period;
    w.integer("period", {"positions after which the stamp repeats", "印章重复所需的位置数"}, period);
    Count seen = 0, unseen = 0, twin_of_100 = 0;
    for (long p = 9; p <= 100; ++p) {
        long twin = 0;
        for (long q = 1; q <= 8 && !twin; ++q)
            if (same_turn(stamp, p, q)) twin = q;
        ++(twin ? seen : unseen);
        if (p == 100) twin_of_100 = Count(twin);
    }
    w.integer("beyond-8-seen", {"packages 9 to 100 whose stamp equals one seen on packages 1 to 8", "第 9 到 100 个包裹中，印章与第 1 到 8 个相同的个数"}, seen);
    w.integer("beyond-8-unseen", {"packages 9 to 100 with a stamp never seen in training", "第 9 到 100 个包裹中，印章训练时从未见过的个数"}, unseen);
    w.number("angle-at-100", {"total angle of package 100, in degrees", "第 100 个包裹转过的总角度（度）"}, degrees(rope_angle(stamp, 0, T(100))));
    w.number("turns-at-100", {"full turns of package 100", "第 100 个包裹转过的整圈数"}, rope_angle(stamp, 0, T(100)) / (T(2) * pi<T>()));
    w.integer("package-100-looks-like", {"the training package whose stamp package 100 repeats", "第 100 个包裹的印章与哪个训练包裹相同"}, twin_of_100);
    return w;
}

template <class T>
Worked<T> position_interpolation_example(const BlockConfig<T>& modern) {
    Worked<T> w{"gqa_long_context-pi", {"Position Interpolation: 100 positions squeezed into 8", "线性内插：把 100 个位置压进 8 个"},
                gqa_long_context_section("RoPE extrapolation", "RoPE外推")};
    const T factor = T(100) / T(8);
    w.number("factor", {"the squeeze factor: 100 positions over the 8 trained", "压缩倍数：100 个位置除以训练过的 8 个"}, factor);
    const Rope<T> stamp = stamp_rope<T>();
    Rope<T> squeezed = stamp;
    squeezed.position_divisor = factor;
    const long shown[] = {1, 8, 50, 100};
    Vector<T> scaled_positions;
    for (long p : shown) scaled_positions.push_back(rope_angle(squeezed, 0, T(p)) / rope_angle(stamp, 0, T(1)));
    w.vector("scaled-positions", {"positions 1, 8, 50 and 100 after dividing by the factor", "位置 1、8、50、100 除以压缩倍数之后"}, scaled_positions);
    w.number("angle-at-100", {"stamp angle of package 100 after the squeeze, in degrees", "压缩后第 100 个包裹的印章角度（度）"},
             degrees(rope_angle(squeezed, 0, T(100))));
    const T before = degrees(neighbour_turns(stamp).front()), after = degrees(neighbour_turns(squeezed).front());
    w.number("neighbour-degrees-before", {"angle between neighbouring packages without the squeeze", "不压缩时相邻包裹的夹角（度）"}, before);
    w.number("neighbour-degrees-after", {"angle between neighbouring packages after the squeeze", "压缩后相邻包裹的夹角（度）"}, after);
    w.number("neighbour-compression", {"how many times the neighbours' angle shrank", "相邻夹角缩小的倍数"}, before / after);

    BlockConfig<T> stretched = modern;
    stretched.rope_scaling = {RopeScalingType::linear, factor};
    const Rope<T> plain = modern.rope(), linear = stretched.rope();
    w.vector("modern/neighbour-radians", {"modern configuration: radians per position step of each pair", "现代配置：每个坐标对每一步转过的弧度"},
             neighbour_turns(plain));
    w.vector("modern/neighbour-radians-squeezed", {"the same with linear scaling by the factor: every pair divided by it",
                                                   "按该倍数线性缩放后：每个坐标对都除以这个倍数"}, neighbour_turns(linear));
    const Vector<T> x = SeededDyadic(3).vector<T>(plain.head_dim());
    w.difference("modern/same-as-position-8", {"max |R(100) x with the squeeze - R(8) x without|", "max |压缩后的 R(100) x - 不压缩的 R(8) x|"},
                 max_abs_difference<T>(rope_rotate(x, linear, T(100)), rope_rotate(x, plain, T(8))));
    return w;
}

template <class T>
Worked<T> ntk_example(const BlockConfig<T>& modern) {
    Worked<T> w{"gqa_long_context-ntk", {"NTK-aware scaling: the fastest pair keeps its speed", "NTK 感知缩放：最快的坐标对保持原速"},
                gqa_long_context_section("RoPE extrapolation", "RoPE外推")};
    const T s = T(100) / T(8);
    w.number("factor", {"stretch factor (the article's 100 over 8)", "拉伸倍数（文章的 100 除以 8）"}, s);
    for (std::size_t d : {modern.head_dim, std::size_t(16)}) {
        const std::string at = fmt::format("d-{}", d);
        const Rope<T> plain = make_rope(modern.rope_theta, d, RopeScaling<T>{}, modern.rope_layout);
        const Rope<T> ntk = make_rope(modern.rope_theta, d, RopeScaling<T>{RopeScalingType::ntk, s}, modern.rope_layout);
        const Rope<T> linear = make_rope(modern.rope_theta, d, RopeScaling<T>{RopeScalingType::linear, s}, modern.rope_layout);
        Vector<T> ntk_slow(plain.inverse_frequencies.size()), linear_slow(ntk_slow.size());
        for (std::size_t i = 0; i < ntk_slow.size(); ++i) {
            ntk_slow[i] = rope_angle(plain, i, T(1)) / rope_angle(ntk, i, T(1));
            linear_slow[i] = rope_angle(plain, i, T(1)) / rope_angle(linear, i, T(1));
        }
        w.number(at + "/base", {fmt::format("head width {}: NTK base theta s^(d/(d-2))", d), fmt::format("头宽 {}：NTK 底数 theta s^(d/(d-2))", d)},
                 ntk_base(modern.rope_theta, s, d));
        w.vector(at + "/frequencies", {"radians per position of each pair, unscaled", "各坐标对每个位置转过的弧度，未缩放"}, plain.inverse_frequencies);
        w.vector(at + "/ntk-frequencies", {"the same with the NTK base", "换成 NTK 底数之后"}, ntk.inverse_frequencies);
        w.vector(at + "/ntk-slow-down", {"how many times NTK slows each pair: 1 for the fastest, s for the slowest",
                                         "NTK 让各坐标对变慢的倍数：最快的为 1，最慢的为 s"}, ntk_slow);
        w.vector(at + "/linear-slow-down", {"for contrast, linear scaling slows every pair by s", "对比：线性内插让每个坐标对都慢 s 倍"}, linear_slow);
        w.number(at + "/fastest-pair-slow-down", {"NTK slow-down of pair 0", "NTK 下坐标对 0 变慢的倍数"}, ntk_slow.front());
        w.number(at + "/slowest-pair-slow-down", {"NTK slow-down of the last pair", "NTK 下最后一个坐标对变慢的倍数"}, ntk_slow.back());
    }
    return w;
}

template <class T>
Worked<T> gqa_example(const BlockConfig<T>& modern) {
    Worked<T> w{"gqa_long_context-gqa", {"Grouped-query attention: 48 query heads in 8 groups", "分组查询注意力：48 个查询头分成 8 组"},
                gqa_long_context_section("GQA grouping, payoff", "GQA分组、收益落地")};
    const HeadLayout gqa{48, 8, 128};
    w.integer("query-heads", {"query heads (sorters)", "查询头（分拣员）"}, gqa.query_heads);
    w.integer("kv-heads", {"key/value heads (shared folders)", "键值头（共享档案夹）"}, gqa.kv_heads);
    w.integer("group-size", {"query heads reading each key/value head", "每个键值头对应的查询头数"}, gqa.group_size());
    std::vector<std::vector<Count>> groups(gqa.kv_heads);
    for (std::size_t h = 0; h < gqa.query_heads; ++h) groups[gqa.kv_head_of(h)].push_back(h);
    w.integer_matrix("groups", {"row g: the query heads that read key/value head g", "第 g 行：读取第 g 个键值头的查询头"}, groups);
    const Count bytes[] = {kv_cache_bytes(1, 48, 128, 4096, 1, 2), kv_cache_bytes(1, 8, 128, 4096, 1, 2), kv_cache_bytes(1, 1, 128, 4096, 1, 2)};
    w.integers("kv-cache-bytes", {"KV cache bytes of MHA (48), GQA (8), MQA (1) key/value heads; one layer, head width 128, 4096 positions, 2-byte numbers (illustrative sizes; the ratio does not depend on them)",
                                  "MHA（48）、GQA（8）、MQA（1）个键值头的 KV 缓存字节数；一层、头宽 128、4096 个位置、每数 2 字节（示意尺寸，比值与之无关）"},
               {bytes[0], bytes[1], bytes[2]});
    w.integers("kv-cache-ratio", {"the three sizes over MQA's", "三者与 MQA 之比"}, {bytes[0] / bytes[2], bytes[1] / bytes[2], bytes[2] / bytes[2]});
    w.number("mha-over-gqa", {"MHA's cache over GQA's", "MHA 与 GQA 缓存之比"}, ratio<T>(bytes[0], bytes[1]));
    // MQA shares one key/value head, yet each query head keeps its own query projection.
    SeededDyadic r(21);
    const std::size_t d = 8, n = 5;
    const Matrix<T> q = r.matrix<T>(n, 2 * d), k = r.matrix<T>(n, d), v = r.matrix<T>(n, d);
    KvCache<T> cache;
    std::vector<long> positions(n);
    for (std::size_t t = 0; t < n; ++t) cache.append(k.row(t), v.row(t), positions[t] = long(t));
    std::vector<Matrix<T>> weights;
    causal_attention<T>(q, positions, cache, HeadLayout{2, 1, d}, &weights);
    w.matrix("mqa/weights-head-0", {"MQA on seeded inputs: attention weights of query head 0 over the one shared K/V head",
                                    "种子输入上的 MQA：查询头 0 对唯一共享 K/V 头的注意力权重"}, weights[0], "[5, 5]");
    w.matrix("mqa/weights-head-1", {"the same for query head 1", "查询头 1 的同样权重"}, weights[1], "[5, 5]");
    w.difference("mqa/weights-difference", {"max |weights of head 0 - weights of head 1|: the heads still look at different places",
                                            "max |头 0 的权重 - 头 1 的权重|：各头仍关注不同位置"},
                 max_abs_difference(weights[0], weights[1]));
    w.integer("modern/group-size", {"the chapter's configuration: query heads per key/value head (1: MHA)", "本章配置：每个键值头对应的查询头数（1 即 MHA）"},
              modern.heads().group_size());
    return w;
}

template <class T>
Worked<T> silu_gate_example() {
    Worked<T> w{"gqa_long_context-swiglu", {"What the SiLU branch outputs; the gated FFN's parameters", "SiLU 支路的输出；门控 FFN 的参数量"},
                gqa_long_context_section("SwiGLU gating", "SwiGLU门控")};
    const Vector<T> xs{T(-10), T(-1), T(1), T(2), T(10)};
    Vector<T> silus, sigmoids, relus;
    for (const T& x : xs) {
        silus.push_back(silu(x));
        sigmoids.push_back(silu(x) / x);
        relus.push_back(relu(x));
    }
    w.vector("inputs", {"inputs", "输入"}, xs);
    w.vector("silu", {"SiLU(x) = x sigmoid(x): negative for x < 0, above 1 for x > 1.28", "SiLU(x) = x sigmoid(x)：x < 0 时为负，x > 1.28 时大于 1"}, silus);
    w.vector("sigmoid", {"SiLU(x) / x = sigmoid(x): this factor does lie between 0 and 1", "SiLU(x) / x = sigmoid(x)：这个因子才在 0 与 1 之间"}, sigmoids);
    w.vector("relu", {"ReLU(x): negatives stopped, positives passed unchanged", "ReLU(x)：负数拦下，正数原样放行"}, relus);
    w.number("silu-at-10", {"SiLU(10): a large input passes almost whole, it does not approach 1", "SiLU(10)：大输入几乎原样通过，并不趋近 1"}, silu(T(10)));
    w.number("silu-at-minus-10", {"SiLU(-10): a very negative input gives almost 0", "SiLU(-10)：很小的输入给出接近 0 的值"}, silu(T(-10)));
    w.number("parameter-ratio", {"SwiGLU over ReLU FFN parameters at the same width (12, 48)", "同宽度（12, 48）下 SwiGLU 与 ReLU FFN 参数之比"},
             ratio<T>(swiglu_ffn_parameters(12, 48), relu_ffn_parameters(12, 48)));
    w.number("matched-width-ratio", {"the same with the gated width cut to 32 (table 25.2)", "门控宽度降到 32 时的同一比值（表 25.2）"},
             ratio<T>(swiglu_ffn_parameters(12, 32), relu_ffn_parameters(12, 48)));
    return w;
}

template <class T>
Worked<T> position_blind_attention_example() {
    Worked<T> w{"gqa_long_context-attention", {"Attention without RoPE does not see order", "没有 RoPE 的注意力看不到顺序"},
                gqa_long_context_section("pain points of the original design", "原版痛点")};
    SeededDyadic r(7);
    const std::size_t d = 8, n = 4;
    const Matrix<T> keys = r.matrix<T>(n, d), values = r.matrix<T>(n, d);
    const Vector<T> query = r.vector<T>(d);
    const std::vector<std::size_t> in_order{0, 1, 2, 3}, reordered{2, 0, 3, 1};
    const Rope<T> rope = make_rope(T(10000), d, RopeScaling<T>{}, RopeLayout::interleaved);
    w.matrix("keys", {"four seeded key rows", "四行种子生成的键"}, keys, "[4, 8]");
    w.matrix("values", {"their value rows", "对应的值行"}, values, "[4, 8]");
    w.vector("query", {"the query, at the last position, sees all four keys", "查询位于最后一个位置，能看到全部四个键"}, query);
    for (const Rope<T>* turn : {static_cast<const Rope<T>*>(nullptr), &rope}) {
        const std::string at = turn ? "rope" : "no-rope";
        const Vector<T> a = attend_in_order(query, keys, values, in_order, turn);
        const Vector<T> b = attend_in_order(query, keys, values, reordered, turn);
        w.vector(at + "/in-order", {turn ? "with RoPE: output, tokens in order 0 1 2 3" : "no RoPE: output, tokens in order 0 1 2 3",
                                    turn ? "有 RoPE：按 0 1 2 3 排列时的输出" : "无 RoPE：按 0 1 2 3 排列时的输出"}, a);
        w.vector(at + "/reordered", {turn ? "with RoPE: output, tokens in order 2 0 3 1" : "no RoPE: output, tokens in order 2 0 3 1",
                                     turn ? "有 RoPE：按 2 0 3 1 排列时的输出" : "无 RoPE：按 2 0 3 1 排列时的输出"}, b);
        w.difference(at + "/difference", {"max |output in order - output reordered|", "max |按序输出 - 打乱后输出|"}, max_abs_difference<T>(a, b));
    }
    return w;
}

template <class T>
Worked<T> rope_demo_example() {
    Worked<T> w{"gqa_long_context-rope-demo", {"The article's RoPE-attention demo, redone in C++", "文章的 RoPE 注意力演示，用 C++ 重做"},
                gqa_long_context_section("Python demo", "Python 演示")};
    const std::size_t heads = 2, seq = 8, dim = 16;
    const T base(10000);
    SeededDyadic r(42);
    const Matrix<T> q = r.matrix<T>(seq, heads * dim), k = r.matrix<T>(seq, heads * dim), v = r.matrix<T>(seq, heads * dim);
    const Rope<T> interleaved = make_rope(base, dim, RopeScaling<T>{}, RopeLayout::interleaved);
    const Rope<T> half = make_rope(base, dim, RopeScaling<T>{}, RopeLayout::half);
    const HeadLayout layout{heads, heads, dim};
    const std::string head_shape = fmt::format("[{}, {}]", seq, dim);

    w.vector("theta", {"theta = 1 / base^(2i/d): pair i's radians per position, fast to slow", "theta = 1 / base^(2i/d)：坐标对 i 每个位置转过的弧度，由快到慢"},
             interleaved.inverse_frequencies);
    bool fast_to_slow = true;
    for (std::size_t i = 1; i < interleaved.inverse_frequencies.size(); ++i)
        fast_to_slow = fast_to_slow && interleaved.inverse_frequencies[i] < interleaved.inverse_frequencies[i - 1];
    w.boolean("theta-fast-to-slow", {"each pair turns slower than the one before", "每个坐标对都比前一个转得慢"}, fast_to_slow);
    Matrix<T> angles(seq, dim / 2);
    for (std::size_t p = 0; p < seq; ++p)
        for (std::size_t i = 0; i < dim / 2; ++i) angles(p, i) = rope_angle(interleaved, i, T(long(p)));
    w.matrix("angles", {"angles = m x theta: row m a position, column i a pair", "angles = m x theta：第 m 行一个位置，第 i 列一个坐标对"}, angles,
             fmt::format("[{}, {}]", seq, dim / 2));
    for (std::size_t h = 0; h < heads; ++h) {
        w.matrix(fmt::format("q/head-{}", h), {fmt::format("seeded q of head {} (batch 0)", h), fmt::format("第 {} 个头的种子 q（批次 0）", h)}, columns(q, h * dim, dim), head_shape);
        w.matrix(fmt::format("k/head-{}", h), {fmt::format("seeded k of head {}", h), fmt::format("第 {} 个头的种子 k", h)}, columns(k, h * dim, dim), head_shape);
        w.matrix(fmt::format("v/head-{}", h), {fmt::format("seeded v of head {}", h), fmt::format("第 {} 个头的种子 v", h)}, columns(v, h * dim, dim), head_shape);
    }
    const Matrix<T> q_rot = rotate_rows(q, interleaved), k_rot = rotate_rows(k, interleaved);
    const Matrix<T> q_demo = rotate_rows(halves_side_by_side(q, dim), half), k_demo = rotate_rows(halves_side_by_side(k, dim), half);
    for (std::size_t h = 0; h < heads; ++h) {
        w.matrix(fmt::format("q-rotated/head-{}", h), {"q with pairs (2i, 2i+1) turned in place", "坐标对 (2i, 2i+1) 原位旋转后的 q"}, columns(q_rot, h * dim, dim), head_shape);
        w.matrix(fmt::format("q-demo/head-{}", h), {"the demo's q_rot: rotated x-halves, then y-halves (the half layout on a permuted q)",
                                                     "演示中的 q_rot：先放旋转后的 x 半边，再放 y 半边（即对重排后的 q 用 half 布局）"},
                 columns(q_demo, h * dim, dim), head_shape);
    }
    w.difference("layout/q-gap", {"max |evens-then-odds(q turned in place) - demo's q_rot|", "max |先偶后奇重排(原位旋转的 q) - 演示的 q_rot|"},
                 max_abs_difference(halves_side_by_side(q_rot, dim), q_demo));
    w.difference("layout/k-gap", {"the same for k", "k 的同一比较"}, max_abs_difference(halves_side_by_side(k_rot, dim), k_demo));

    std::vector<Matrix<T>> weights;
    const Matrix<T> out = attention_all_visible(q_rot, k_rot, v, layout, &weights);
    const Matrix<T> out_demo = attention_all_visible(q_demo, k_demo, v, layout);
    T row_sum_gap(0);
    std::vector<std::vector<Count>> top(heads, std::vector<Count>(seq));
    Count far_tops = 0;
    for (std::size_t h = 0; h < heads; ++h) {
        w.matrix(fmt::format("weights/head-{}", h), {"softmax(q k^T / sqrt(16)) over all 8 keys (the demo has no causal mask)",
                                                     "对全部 8 个键做 softmax(q k^T / sqrt(16))（演示没有因果掩码）"}, weights[h], fmt::format("[{}, {}]", seq, seq));
        for (std::size_t t = 0; t < seq; ++t) {
            using std::abs;
            T sum(0);
            std::size_t best = 0;
            for (std::size_t j = 0; j < seq; ++j) {
                sum += weights[h](t, j);
                if (weights[h](t, j) > weights[h](t, best)) best = j;
            }
            row_sum_gap = std::max<T>(row_sum_gap, abs(sum - T(1)));
            top[h][t] = best;
            if ((best > t ? best - t : t - best) > 1) ++far_tops;
        }
    }
    w.difference("weights/row-sum-gap", {"max |sum of a query's weights - 1|", "max |一个查询的权重和 - 1|"}, row_sum_gap);
    w.integer_matrix("top-key", {"row h, column t: the key position query t of head h weighs most", "第 h 行第 t 列：第 h 个头中查询 t 权重最大的键位置"}, top);
    w.integer("top-key-not-adjacent", {"queries (of 16) whose most weighted key is more than one position away", "（16 个查询中）权重最大的键与查询相距超过一个位置的个数"}, far_tops);
    for (std::size_t h = 0; h < heads; ++h)
        w.matrix(fmt::format("output/head-{}", h), {fmt::format("attention output of head {}", h), fmt::format("第 {} 个头的注意力输出", h)},
                 columns(out, h * dim, dim), head_shape);
    w.integers("output-shape", {"output shape (batch, heads, positions, width)", "输出形状（批次、头、位置、宽度）"},
               {1, out.cols / dim, out.rows, dim});
    w.difference("output/layout-gap", {"max |output with pairs turned in place - output with the demo's write-back|", "max |原位旋转的输出 - 演示写回方式的输出|"},
                 max_abs_difference(out, out_demo));
    return w;
}

#define BLOCKCHECK_WORKED_ARTICLE(T)                                              \
    template Worked<T> stamp_example<T>();                                        \
    template Worked<T> position_interpolation_example<T>(const BlockConfig<T>&);  \
    template Worked<T> ntk_example<T>(const BlockConfig<T>&);                     \
    template Worked<T> gqa_example<T>(const BlockConfig<T>&);                     \
    template Worked<T> silu_gate_example<T>();                                    \
    template Worked<T> position_blind_attention_example<T>();                     \
    template Worked<T> rope_demo_example<T>();
BLOCKCHECK_WORKED_ARTICLE(Mpfr50)
BLOCKCHECK_WORKED_ARTICLE(Mpfr100)

}  // namespace blockcheck
