#include "checker/block/error_report.hpp"

#include <algorithm>
#include <cmath>

namespace blockcheck {

std::size_t stage_depth(const std::string& stage, const BlockConfig<Mpfr50>& c, std::size_t keys) {
    const std::size_t C = c.hidden_size, F = c.ffn_hidden_size, d = c.head_dim, qd = c.query_heads * c.head_dim;
    const std::size_t norm = C, projected = norm + C, rotated = projected + 2, scores = rotated + d + keys;
    const std::size_t heads = scores + keys, residual = heads + qd + 1, m = residual + C, gate = m + C;
    if (stage == "N") return norm;
    if (stage == "Q" || stage == "K" || stage == "V") return projected;
    if (stage == "Q_rotated" || stage == "K_rotated") return rotated;
    if (stage == "heads") return heads;
    if (stage == "attention_output") return residual - 1;
    if (stage == "R") return residual;
    if (stage == "M") return m;
    if (stage == "gate" || stage == "up") return gate;
    if (stage == "hidden") return gate + 1;
    if (stage == "down") return gate + 1 + F;
    if (stage == "output") return gate + 1 + F + 1;
    return scores;  // attention weights and anything else recorded inside attention
}

double epsilon(DType dtype) {
    switch (dtype) {
        case DType::float64: return std::ldexp(1.0, -52);
        case DType::float32: return std::ldexp(1.0, -23);
        case DType::bfloat16: return std::ldexp(1.0, -7);
        case DType::float16: return std::ldexp(1.0, -10);
    }
    return 0;
}

double digits_agreed(double abs_error, double reference) {
    if (abs_error == 0) return 50;
    if (reference == 0) return 0;
    return std::clamp(-std::log10(abs_error / std::abs(reference)), 0.0, 50.0);
}

double ulps(double abs_error, double reference, DType dtype) {
    // ulp(x) = 2^(floor(log2 |x|)) eps; below the smallest normal, the subnormal spacing
    const double magnitude = std::max(std::abs(reference), dtype == DType::float64 ? 0x1p-1022 : 0x1p-126);
    return abs_error / std::ldexp(epsilon(dtype), std::ilogb(magnitude));
}

Tolerance derived_tolerance(DType dtype, std::size_t depth, double max_reference) {
    Tolerance t;
    t.depth = depth;
    t.multiple = 4;
    t.rtol = t.multiple * epsilon(dtype) * std::sqrt(static_cast<double>(depth));
    t.atol = t.rtol * max_reference;
    return t;
}

StageErrors stage_errors(const std::string& name, const Matrix<Mpfr50>& given, const Matrix<Mpfr50>& reference,
                         const Tolerance& tolerance, DType dtype) {
    using std::abs;
    using std::isfinite;
    StageErrors s;
    s.name = name, s.rows = reference.rows, s.cols = reference.cols, s.tolerance = tolerance;
    double sum_abs = 0, sum_rel = 0, sum_err2 = 0, sum_ref2 = 0;
    std::size_t finite = 0, rel_count = 0;
    for (const Mpfr50& r : reference.values) s.max_reference = std::max(s.max_reference, abs(r).convert_to<double>());
    s.row_errors.resize(reference.rows);
    for (std::size_t r = 0; r < reference.rows; ++r)
        for (std::size_t c = 0; c < reference.cols; ++c) {
            const double g = given(r, c).convert_to<double>(), ref = reference(r, c).convert_to<double>();
            RowErrors& row = s.row_errors[r];
            if (!isfinite(given(r, c))) {
                ++row.outside;
                if (!s.nonfinite++) s.first_nonfinite = ElementAt{r, c, g, ref, g};
                continue;
            }
            const double e = abs(given(r, c) - reference(r, c)).convert_to<double>();
            ++finite;
            sum_abs += e, sum_err2 += e * e, sum_ref2 += ref * ref;
            if (e > s.worst_abs.value) s.worst_abs = {r, c, g, ref, e};
            if (ref != 0) {
                const double rel = e / std::abs(ref);
                sum_rel += rel, ++rel_count;
                if (rel > s.worst_rel.value) s.worst_rel = {r, c, g, ref, rel};
            }
            const double allowance = e == 0 ? 0.0 : e / (tolerance.atol + tolerance.rtol * std::abs(ref));
            if (!(allowance <= 1)) ++s.outside, ++row.outside;
            if (allowance > s.worst_allowance.value) s.worst_allowance = {r, c, g, ref, allowance};
            row.normwise = std::max(row.normwise, e);  // divided by max|ref| below
            row.worst_ulps = std::max(row.worst_ulps, ulps(e, ref, dtype));
            row.fewest_digits = std::min(row.fewest_digits, digits_agreed(e, ref));
            s.worst_ulps = std::max(s.worst_ulps, row.worst_ulps);
            s.fewest_digits = std::min(s.fewest_digits, row.fewest_digits);
        }
    for (RowErrors& row : s.row_errors)
        if (s.max_reference > 0) row.normwise /= s.max_reference;
    s.max_abs = std::max(s.worst_abs.value, 0.0);
    s.max_rel = std::max(s.worst_rel.value, 0.0);
    s.mean_abs = finite ? sum_abs / double(finite) : 0;
    s.mean_rel = rel_count ? sum_rel / double(rel_count) : 0;
    s.normwise = s.max_reference > 0 ? s.max_abs / s.max_reference : s.max_abs;
    s.frobenius = sum_ref2 > 0 ? std::sqrt(sum_err2 / sum_ref2) : std::sqrt(sum_err2);
    return s;
}

void judge_against_faithful(StageErrors& s, double faithful, DType dtype) {
    s.faithful = faithful;
    s.faithful_limit = faithful_multiple * std::max(faithful, epsilon(dtype));
    s.beyond_faithful = s.normwise > s.faithful_limit;
    for (RowErrors& row : s.row_errors) row.beyond_faithful = row.normwise > s.faithful_limit;
}

// The faithful run's stage `name`, or nullptr.
static const Matrix<Mpfr50>* stage_of(const Trace<Mpfr50>* trace, const std::string& name) {
    if (trace)
        for (const auto& [n, m] : *trace)
            if (n == name) return &m;
    return nullptr;
}

std::vector<StageErrors> compare_stages(const Trace<Mpfr50>& given, const Trace<Mpfr50>& reference,
                                        const BlockConfig<Mpfr50>& config, std::size_t keys, DType dtype,
                                        std::optional<double> rtol, std::optional<double> atol,
                                        const Trace<Mpfr50>* faithful) {
    using std::abs;
    std::vector<StageErrors> stages;
    for (auto& [name, ref] : reference)
        for (auto& [n, g] : given)
            if (n == name) {
                double max_ref = 0;
                for (const Mpfr50& r : ref.values) max_ref = std::max(max_ref, abs(r).convert_to<double>());
                Tolerance t = derived_tolerance(dtype, stage_depth(name, config, keys), max_ref);
                if (rtol || atol) t = Tolerance{rtol.value_or(0), atol.value_or(0), 0, 0};
                stages.push_back(stage_errors(name, g, ref, t, dtype));
                const Matrix<Mpfr50>* f = stage_of(faithful, name);
                if (f && !rtol && !atol) judge_against_faithful(stages.back(), stage_errors(name, *f, ref, t, dtype).normwise, dtype);
            }
    return stages;
}

const StageErrors* first_stage_outside(const std::vector<StageErrors>& stages) {
    for (const StageErrors& s : stages)
        if (!s.within()) return &s;
    return nullptr;
}

}  // namespace blockcheck
