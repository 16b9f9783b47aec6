#include "checker/block/rope_check.hpp"

#include "checker/block/error_report.hpp"
#include "solutions/block/rope_mistakes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace blockcheck {
namespace {

// Elements a dump may hold (positions x pairs), checked before anything is computed.
constexpr std::size_t max_rope_elements = std::size_t(1) << 20;

// The shape as numpy prints it: (4, 64).
std::string rope_shape_text(const std::vector<std::size_t>& shape) {
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

// Columns [first, first + step * count) of a row-major [rows, width] array, every step-th.
Matrix<Mpfr50> rope_columns(const Tensor& t, std::size_t rows, std::size_t width, std::size_t first, std::size_t step,
                            std::size_t count) {
    Matrix<Mpfr50> m(rows, count);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < count; ++c) m(r, c) = Mpfr50(t.values[r * width + first + c * step]);
    return m;
}

// Whether both copies of every pair's value are the same bits (NaN counts as equal to NaN).
bool rope_copies_agree(const Tensor& t, std::size_t rows, std::size_t width, std::size_t second, std::size_t step,
                       std::size_t pairs) {
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t i = 0; i < pairs; ++i) {
            const std::size_t a = r * width + (step == 1 ? i : 2 * i), b = a + (step == 1 ? second : 1);
            const double x = t.values[a], y = t.values[b];
            if (!(x == y || (std::isnan(x) && std::isnan(y)))) return false;
        }
    return true;
}

// The relative error allowed on an angle: base^(-2i/d) evaluated at precision eps (its exponent
// rounded, then scaled by ln base), the blend of scaled and unscaled frequencies, and position x
// inv_freq, each a few roundings: eps (8 + 2 ln base).
double rope_angle_rtol(double eps, const Mpfr50& theta) {
    using std::log;
    return eps * (8 + 2 * log(theta).convert_to<double>());
}

struct RopeAllowance {
    double inv_rtol, factor_rtol, trig_eps, angle_rtol;
};

// eps of the dump's type for its own rounding; angles at float32 at least, as transformers
// computes them before casting cos and sin to the model's dtype.
RopeAllowance rope_allowance(DType dtype, const Mpfr50& theta) {
    const double eps = epsilon(dtype), angle_eps = std::min(eps, epsilon(DType::float32));
    const double angle_rtol = rope_angle_rtol(angle_eps, theta);
    return {4 * eps + angle_rtol, 4 * eps, 4 * eps, angle_rtol};
}

// The reference tensor of that name, and each element's allowance.
const Matrix<Mpfr50>* rope_reference_of(const std::string& name, const RopeTensors& t, Matrix<Mpfr50>& scratch) {
    if (name == "cos") return &t.cos;
    if (name == "sin") return &t.sin;
    if (name == "inv_freq") {
        scratch = Matrix<Mpfr50>(1, t.inv_freq.size());
        scratch.values = t.inv_freq;
    } else {
        scratch = Matrix<Mpfr50>(1, 1);
        scratch.values = {t.attention_factor};
    }
    return &scratch;
}

double rope_element_allowance(const std::string& name, const RopeTensors& t, const RopeAllowance& a, std::size_t r,
                              std::size_t c, double reference) {
    using std::abs;
    if (name == "inv_freq") return a.inv_rtol * std::abs(reference);
    if (name == "attention_factor") return a.factor_rtol * std::abs(reference);
    const double factor = abs(t.attention_factor).convert_to<double>();
    return factor * (a.trig_eps + abs(t.angle(r, c)).convert_to<double>() * a.angle_rtol);
}

// The frequency plan behind the tensors at `positions`, with one mistake made.
Rope<Mpfr50> rope_plan(const RopeConfig<Mpfr50>& config, const std::vector<long>& positions, RopeScalingMistake mistake) {
    RopeScaling<Mpfr50> scaling = config.scaling;
    scaling.mistake = mistake;
    return make_rope(config.theta, config.rotary_dim, scaling, RopeLayout::half, static_cast<std::size_t>(positions.back()) + 1);
}

// Whether two plans give the same tensors (the scores' factor is no tensor of RoPE's).
bool same_rope_tensors(const Rope<Mpfr50>& a, const Rope<Mpfr50>& b) {
    return a.inverse_frequencies == b.inverse_frequencies && a.position_divisor == b.position_divisor &&
           a.attention_factor == b.attention_factor;
}

}  // namespace

RopeTensors rope_tensors(const RopeConfig<Mpfr50>& config, const std::vector<long>& positions, RopeScalingMistake mistake) {
    RopeTensors t;
    t.positions = positions;
    t.sequence_length = static_cast<std::size_t>(positions.back()) + 1;
    const Rope<Mpfr50> rope = rope_plan(config, positions, mistake);
    const std::size_t pairs = rope.inverse_frequencies.size();
    for (const Mpfr50& f : rope.inverse_frequencies) t.inv_freq.push_back(f / rope.position_divisor);
    t.attention_factor = rope.attention_factor;
    t.angle = t.cos = t.sin = Matrix<Mpfr50>(positions.size(), pairs);
    for (std::size_t r = 0; r < positions.size(); ++r) {
        const Mpfr50 p(positions[r]);
        const RopeTurn<Mpfr50> turn = rope_turn(rope, p);
        for (std::size_t i = 0; i < pairs; ++i) {
            t.angle(r, i) = rope_angle(rope, i, p);
            t.cos(r, i) = turn.cos[i];
            t.sin(r, i) = turn.sin[i];
        }
    }
    return t;
}

bool rope_tensor_name(const std::string& name) {
    return name == "inv_freq" || name == "cos" || name == "sin" || name == "attention_factor";
}

RopeGiven rope_given(const std::string& name, const Tensor& tensor, const std::string& file, std::size_t positions,
                     std::size_t pairs) {
    std::vector<std::size_t> shape = tensor.shape;
    while (shape.size() > (name == "cos" || name == "sin" ? 2u : 1u) && shape.front() == 1) shape.erase(shape.begin());
    const std::string at = file + ": " + name + " " + rope_shape_text(tensor.shape);
    RopeGiven g{name, file, "", {}};
    if (name == "attention_factor") {
        if (tensor.values.size() != 1) throw InputFileError(at + ": expected one number (shape () or (1,))");
        g.values = rope_columns(tensor, 1, 1, 0, 1, 1);
        return g;
    }
    if (name == "inv_freq") {
        if (shape.size() != 1 || shape[0] != pairs)
            throw InputFileError(fmt::format("{}: expected ({},): one frequency per pair", at, pairs));
        g.values = rope_columns(tensor, 1, pairs, 0, 1, pairs);
        return g;
    }
    if (shape.size() == 1) shape.insert(shape.begin(), 1);
    const std::size_t rows = shape.size() == 2 ? shape[0] : 0, width = shape.size() == 2 ? shape[1] : 0;
    if (rows != positions || (width != pairs && width != 2 * pairs))
        throw InputFileError(fmt::format("{}: expected ({}, {}) or ({}, {}): one row per position, one column per pair "
                                         "(or per coordinate, each pair's value twice)",
                                         at, positions, pairs, positions, 2 * pairs));
    if (rows * pairs > max_rope_elements)
        throw InputFileError(fmt::format("{}: {} positions x {} pairs is beyond the limit of {} elements; dump fewer "
                                         "positions",
                                         at, rows, pairs, max_rope_elements));
    if (width == pairs) {
        g.values = rope_columns(tensor, rows, width, 0, 1, pairs);
    } else if (rope_copies_agree(tensor, rows, width, pairs, 1, pairs)) {
        g.layout = "half";  // column i and i + pairs: cat(freqs, freqs), transformers' rotate_half
        g.values = rope_columns(tensor, rows, width, 0, 1, pairs);
    } else if (rope_copies_agree(tensor, rows, width, 1, 2, pairs)) {
        g.layout = "interleaved";  // columns 2i and 2i + 1
        g.values = rope_columns(tensor, rows, width, 0, 2, pairs);
    } else {
        throw InputFileError(at + ": a full head's width, but the two copies of a pair's value differ both in the half "
                                  "layout (columns i and i + d/2) and the interleaved one (2i and 2i + 1); dump one "
                                  "column per pair");
    }
    return g;
}

RopeGrade grade_rope_tensor(const RopeGiven& given, const RopeTensors& reference, DType dtype, const Mpfr50& theta) {
    using std::abs;
    using std::isfinite;
    Matrix<Mpfr50> scratch;
    const Matrix<Mpfr50>& ref = *rope_reference_of(given.name, reference, scratch);
    const RopeAllowance allowance = rope_allowance(dtype, theta);
    RopeGrade g;
    g.name = given.name, g.layout = given.layout, g.elements = ref.values.size();
    double max_reference = 0;
    for (std::size_t r = 0; r < ref.rows; ++r)
        for (std::size_t c = 0; c < ref.cols; ++c) {
            const double x = given.values(r, c).convert_to<double>(), y = ref(r, c).convert_to<double>();
            max_reference = std::max(max_reference, std::abs(y));
            const bool finite = isfinite(given.values(r, c)) && isfinite(ref(r, c));
            const double error = finite ? abs(given.values(r, c) - ref(r, c)).convert_to<double>() : INFINITY;
            if (!isfinite(given.values(r, c))) ++g.nonfinite;
            g.max_abs = std::max(g.max_abs, error);
            const double limit = rope_element_allowance(given.name, reference, allowance, r, c, y);
            const double use = error == 0 ? 0.0 : error / limit;
            if (!(use <= 1)) ++g.outside;
            if (use > g.worst_use || (g.worst_at.empty() && r + c == 0)) {
                g.worst_use = use, g.worst_given = x, g.worst_reference = y;
                g.worst_at = given.name == "cos" || given.name == "sin" ? fmt::format("{}[{}][{}]", given.name, r, c)
                             : given.name == "inv_freq"                 ? fmt::format("inv_freq[{}]", c)
                                                                        : std::string("attention_factor");
            }
        }
    g.normwise = max_reference > 0 ? g.max_abs / max_reference : g.max_abs;
    return g;
}

RopeVerdict judge_rope_dump(const std::vector<RopeGiven>& given, const RopeConfig<Mpfr50>& config,
                            const std::vector<long>& positions, DType dtype) {
    RopeVerdict v;
    const RopeTensors honest = rope_tensors(config, positions);
    for (const RopeGiven& g : given) v.grades.push_back(grade_rope_tensor(g, honest, dtype, config.theta));
    v.within = std::all_of(v.grades.begin(), v.grades.end(), [](const RopeGrade& g) { return g.within(); });
    const Rope<Mpfr50> honest_plan = rope_plan(config, positions, RopeScalingMistake::none);
    for (const auto& [id, mistake] : rope_mistake_ids) {
        if (same_rope_tensors(rope_plan(config, positions, mistake), honest_plan)) {  // not this scaling's mistake
            v.not_visible.emplace_back(id);
            continue;
        }
        const RopeTensors made = rope_tensors(config, positions, mistake);
        bool visible = false, fits = true;
        for (const RopeGiven& g : given) {
            Matrix<Mpfr50> scratch;
            RopeGiven as_made{g.name, g.file, "", *rope_reference_of(g.name, made, scratch)};
            visible = visible || !grade_rope_tensor(as_made, honest, dtype, config.theta).within();
            fits = fits && grade_rope_tensor(g, made, dtype, config.theta).within();
        }
        if (!visible) v.not_visible.emplace_back(id);
        else if (fits && !v.within) v.named.emplace_back(id);
    }
    return v;
}

Text rope_mistake_shown_by(const std::string& id) {
    if (id == "rope_scaling_not_applied")
        return {"a scaled configuration, with inv_freq or cos/sin at a position above 0",
                "有缩放的配置，并给出 inv_freq，或大于 0 的位置上的 cos/sin"};
    if (id == "yarn_attention_factor_missing" || id == "yarn_attention_factor_twice")
        return {"a YaRN or LongRoPE configuration whose attention factor is not 1, with cos, sin or attention_factor",
                "注意力因子不为 1 的 YaRN 或 LongRoPE 配置，并给出 cos、sin 或 attention_factor"};
    if (id == "yarn_attention_factor_on_scores")
        return {"the attention scores, never cos and sin: run `blockcheck compare` on a block case with this scaling",
                "只在注意力分数中可见，cos 和 sin 都正确：请用 `blockcheck compare` 在带此缩放的 block 用例上比较"};
    if (id == "llama3_band_skipped")
        return {"a llama3 configuration, with inv_freq or cos/sin at a position above 0",
                "llama3 配置，并给出 inv_freq，或大于 0 的位置上的 cos/sin"};
    if (id == "dynamic_ntk_at_longest_context")
        return {"a dynamic configuration at a sequence shorter than factor x the original context (a smaller largest "
                "position)",
                "dynamic 配置，且序列短于 factor 乘原始上下文长度（最大位置更小）"};
    return {"a dynamic configuration at a sequence shorter than the original context (largest position below L0 - 1)",
            "dynamic 配置，且序列短于原始上下文长度（最大位置小于 L0 - 1）"};
}

}  // namespace blockcheck
