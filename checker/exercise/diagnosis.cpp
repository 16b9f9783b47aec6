#include "checker/exercise/diagnosis.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace blockcheck {
namespace {

// Relative errors of float size: above a few double roundings, below 2^-16 (float keeps 24 bits).
constexpr double float_rel_low = 1e-12, float_rel_high = 1.0 / 65536;

// Every number of a value times `factor`.
Value scaled_value(Value v, const Real& factor) {
    if (auto* x = std::get_if<Real>(&v)) *x *= factor;
    if (auto* vec = std::get_if<Vector<Real>>(&v))
        for (Real& x : *vec) x *= factor;
    if (auto* m = std::get_if<Matrix<Real>>(&v))
        for (Real& x : m->values) x *= factor;
    return v;
}

bool all_zero(const Value& v) {
    if (auto* x = std::get_if<Real>(&v)) return *x == 0;
    if (auto* vec = std::get_if<Vector<Real>>(&v)) return std::all_of(vec->begin(), vec->end(), [](auto& x) { return x == 0; });
    if (auto* m = std::get_if<Matrix<Real>>(&v)) return std::all_of(m->values.begin(), m->values.end(), [](auto& x) { return x == 0; });
    return true;
}

// The simple factors a value is often off by: 2, sqrt(2), sqrt(n), n and their inverses (n:
// elements of a row, the width a mean or a 1/sqrt(d) runs over).
std::vector<Real> simple_factors(const Value& expected) {
    using std::sqrt;
    std::size_t n = 0;
    if (auto* vec = std::get_if<Vector<Real>>(&expected)) n = vec->size();
    if (auto* m = std::get_if<Matrix<Real>>(&expected)) n = m->cols;
    // sqrt(2): the 1/sqrt(d) of the chapter's two-dimensional heads
    std::vector<Real> factors = {Real(2), Real(1) / Real(2), sqrt(Real(2)), Real(1) / sqrt(Real(2))};
    if (n > 2) {
        const Real rn(static_cast<long>(n));
        for (const Real& f : std::vector<Real>{sqrt(rn), rn}) factors.push_back(f), factors.push_back(Real(1) / f);
    }
    return factors;
}

// The given vector's numbers, sorted, against the expected ones sorted: the right elements in
// another order.
bool permuted(const AnswerSpec& spec, const Reading& given, const Value& expected) {
    auto* items = std::get_if<std::vector<NumberText>>(&given);
    auto* want = std::get_if<Vector<Real>>(&expected);
    if (!items || !want || items->size() != want->size() || want->size() < 2) return false;
    std::vector<std::pair<Real, const NumberText*>> values;
    try {
        for (const NumberText& n : *items) values.emplace_back(number_value(n), &n);
    } catch (const ProtocolError&) {
        return false;
    }
    std::sort(values.begin(), values.end(), [](auto& a, auto& b) { return a.first < b.first; });
    Vector<Real> sorted = *want;
    std::sort(sorted.begin(), sorted.end());
    std::vector<NumberText> in_order;
    for (auto& [value, text] : values) in_order.push_back(*text);
    return within_tolerance(spec, Reading(in_order), Value(sorted));
}

bool is_numeric(AnswerKind kind) {
    return kind == AnswerKind::number || kind == AnswerKind::angle || kind == AnswerKind::vector ||
           kind == AnswerKind::matrix || kind == AnswerKind::integer;
}

bool angle_in_degrees(const AnswerSpec& spec) {
    return spec.kind == AnswerKind::angle || spec.name.find("degrees") != std::string::npos;
}

// One degree in radians, pi / 180 (here, not the block's radians(): the student edition has no block).
Real one_degree() {
    using std::acos;
    return acos(Real(-1)) / 180;
}

Diagnosis named(const std::string& id) { return {id, mistake_message(id)}; }

}  // namespace

const Text& mistake_message(const std::string& id) {
    static const std::map<std::string, Text> messages = {
        {"float_precision",
         {"the value is off by about what float (single precision, 7 digits) arithmetic leaves: compute in double",
          "数值的偏差正是 float（单精度，约 7 位有效数字）运算留下的大小：请用 double 计算"}},
        {"hard_coded",
         {"right on the book's inputs but wrong on other inputs: the program seems to print the book's numbers "
          "instead of computing them from what it reads",
          "书中的输入能算对，换一组输入就错：程序似乎直接输出了书上的数，而不是用读入的输入计算"}},
        {"degrees_as_radians",
         {"this is what comes out when an angle in degrees is passed to sin or cos as if it were radians: convert "
          "with degrees * pi / 180 first",
          "把以度为单位的角直接当作弧度传给 sin 或 cos，就会得到这个结果：先用 度数 * pi / 180 换算"}},
        {"radians_as_degrees",
         {"this is the angle in radians, but the answer asks for degrees: multiply by 180 / pi",
          "这是以弧度表示的角，而本题要求以度表示：乘以 180 / pi"}},
        {"sign_flipped", {"the value has the right size but the opposite sign", "数值大小正确，但符号相反"}},
        {"transposed",
         {"this is the transpose of the expected matrix: rows and columns are swapped", "这是正确矩阵的转置：行与列对调了"}},
        {"permuted",
         {"the elements are right but in another order", "各元素的值都对，但顺序不对"}},
        {"scaled",
         {"the value is off by a simple factor (2, a square root of the width, or the width itself): look for a "
          "missing or extra factor, such as a sum used for a mean or a 1/sqrt(d) applied twice",
          "数值差了一个简单的倍数（2、宽度的平方根或宽度本身）：检查是否少乘或多乘了一个因子，例如把求和当作平均，或 1/sqrt(d) 用了两次"}},
        {"clockwise_rotation",
         {"the arrows turn clockwise here; RoPE turns them counter-clockwise: (x cos θ − y sin θ, x sin θ + y cos θ)",
          "这里的箭头是顺时针转的；RoPE 是逆时针旋转：(x cos θ − y sin θ, x sin θ + y cos θ)"}},
        {"position_off_by_one",
         {"the positions seem counted from 1; positions start at 0, and position p turns by p × angle",
          "位置似乎是从 1 开始数的；位置从 0 开始，位置 p 转过 p × 角度"}},
        {"pairing_half_vs_interleaved",
         {"the coordinates are paired as (i, i + d/2); this exercise pairs neighbours (2i, 2i+1)",
          "坐标被配成了 (i, i + d/2)；本题按相邻配对 (2i, 2i+1)"}},
        {"angle_not_scaled",
         {"the angles are not scaled: the long-context factor was never applied to the positions or the base",
          "角度没有缩放：长上下文的缩放因子没有作用到位置或底数上"}},
        {"ntk_exponent",
         {"the base was multiplied by the factor s itself; NTK-aware scaling uses base × s^(d/(d−2))",
          "底数直接乘了因子 s；NTK-aware 缩放用的是 base × s^(d/(d−2))"}},
        {"eps_omitted",
         {"epsilon is missing from the root: RMSNorm divides by sqrt(mean of squares + eps)",
          "根号里漏了 epsilon：RMSNorm 除以 sqrt(平方的平均 + eps)"}},
        {"eps_outside_sqrt",
         {"epsilon was added outside the square root; it belongs inside: sqrt(mean of squares + eps)",
          "epsilon 加在了根号外面；它应在根号里面：sqrt(平方的平均 + eps)"}},
        {"mean_subtracted",
         {"the mean was subtracted first: that is LayerNorm; RMSNorm divides the row as it is by its root mean square",
          "先减去了均值：那是 LayerNorm；RMSNorm 直接用原始行除以它的均方根"}},
        {"gain_omitted",
         {"the gains g were not applied: RMSNorm multiplies each coordinate by its gain after normalising",
          "没有乘增益 g：RMSNorm 归一化之后要把每个坐标乘以对应的增益"}},
        {"sum_not_mean",
         {"the squares were summed but not averaged: divide their sum by the row's width",
          "平方只求了和，没有求平均：要把平方和除以这一行的宽度"}},
        {"sigmoid_for_silu",
         {"this is sigmoid(a), the gate's pass ratio; SiLU is a × sigmoid(a)", "这是 sigmoid(a)，只是门的通过比例；SiLU 是 a × sigmoid(a)"}},
        {"relu_for_silu",
         {"this is ReLU where SwiGLU uses SiLU: SiLU(a) = a / (1 + e^−a) is smooth and slightly negative below zero",
          "这里用的是 ReLU，而 SwiGLU 用的是 SiLU：SiLU(a) = a / (1 + e^−a) 是光滑的，在零以下略为负"}},
        {"gate_up_swapped",
         {"the gate and up projections are swapped: SiLU goes on x W_gate, and x W_up is multiplied in",
          "gate 和 up 两个投影用反了：SiLU 作用在 x W_gate 上，x W_up 只是相乘"}},
        {"transposed_weights",
         {"the weights were used transposed: with W of shape [C, F], the projection is x W", "权重被转置后使用了：W 的形状是 [C, F]，投影是 x W"}},
        {"no_attention_scale",
         {"the scores were not divided by sqrt(d) before the softmax", "注意力分数在 softmax 之前没有除以 sqrt(d)"}},
        {"not_causal",
         {"later positions were visible: a causal query only reads keys at its own position or earlier",
          "后面的位置也被看见了：因果注意力的查询只能读取自己及之前位置的键"}},
        {"wrong_kv_head",
         {"the query heads were mapped to key/value heads round-robin (h mod kv_heads); GQA groups neighbours: head h "
          "reads h / (query_heads / kv_heads)",
          "查询头被轮流分配到了键值头（h mod kv_heads）；GQA 按相邻分组：第 h 个头读取 h / (query_heads / kv_heads)"}},
        {"bias_counted",
         {"biases were counted; these blocks have none, only the weight matrices (and the norms' gains) count",
          "把偏置也算进去了；这些模块没有偏置，只算权重矩阵（以及归一化的增益）"}},
        {"matrix_missing",
         {"a matrix is missing: SwiGLU has three (gate, up and down), the ReLU FFN two",
          "少算了一个矩阵：SwiGLU 有三个（gate、up、down），ReLU FFN 才是两个"}},
        {"relu_width_for_swiglu",
         {"the ReLU FFN's width was kept for SwiGLU; to keep the parameter budget SwiGLU narrows it to two thirds",
          "SwiGLU 沿用了 ReLU FFN 的宽度；为了保持参数量，SwiGLU 要把宽度缩到三分之二"}},
    };
    return messages.at(id);
}

const std::vector<std::string>& generic_mistakes() {
    static const std::vector<std::string> all = {"float_precision",   "hard_coded",   "degrees_as_radians",
                                                 "radians_as_degrees", "sign_flipped", "transposed",
                                                 "permuted",           "scaled"};
    return all;
}

bool derived_from_expected(const std::string& id) {
    const auto& generic = generic_mistakes();
    return id != "degrees_as_radians" && std::find(generic.begin(), generic.end(), id) != generic.end();
}

bool known_mistake(const std::string& id) {
    try {
        mistake_message(id);
        return true;
    } catch (const std::out_of_range&) {
        return false;
    }
}

std::optional<Diagnosis> diagnose(const AnswerSpec& spec, const PartResult& part, const ProgramLine& given,
                                  const Value& expected, const std::map<std::string, Values>& mistakes) {
    if (!is_numeric(spec.kind)) return std::nullopt;
    const bool wrong = part.verdict == Verdict::wrong;
    const bool float_sized = part.rel_error && *part.rel_error > float_rel_low && *part.rel_error <= float_rel_high;
    if (part.verdict == Verdict::correct) {
        if (part.inexact && float_sized) return named("float_precision");
        return std::nullopt;
    }
    if (!wrong) return std::nullopt;
    // the exercise's own mistakes, as the reference computes them, in the order declared
    for (const auto& [id, values] : mistakes) {
        auto it = values.find(spec.name);
        if (it == values.end()) continue;
        if (within_tolerance(spec, given.value, it->second)) return named(id);
    }
    if (float_sized) return named("float_precision");
    if (all_zero(expected)) return std::nullopt;
    if (angle_in_degrees(spec) && within_tolerance(spec, given.value, scaled_value(expected, one_degree())))
        return named("radians_as_degrees");
    if (within_tolerance(spec, given.value, scaled_value(expected, Real(-1)))) return named("sign_flipped");
    if (auto* m = std::get_if<Matrix<Real>>(&expected); m && within_tolerance(spec, given.value, Value(transpose(*m))))
        return named("transposed");
    if (permuted(spec, given.value, expected)) return named("permuted");
    for (const Real& factor : simple_factors(expected))
        if (within_tolerance(spec, given.value, scaled_value(expected, factor))) return named("scaled");
    return std::nullopt;
}

}  // namespace blockcheck
