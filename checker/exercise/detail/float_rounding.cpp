// A right program computed in float (diagnosis.hpp: forgive_float_rounding).
#include "checker/exercise/diagnosis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace blockcheck {
namespace {

// The largest magnitude of a numeric value: the scale float rounding is relative to.
Real largest_magnitude(const Value& v) {
    using std::abs;
    Real scale = 0;
    auto see = [&](const Real& x) { scale = std::max(scale, Real(abs(x))); };
    if (auto* x = std::get_if<Real>(&v)) see(*x);
    if (auto* vec = std::get_if<Vector<Real>>(&v)) std::for_each(vec->begin(), vec->end(), see);
    if (auto* m = std::get_if<Matrix<Real>>(&v)) std::for_each(m->values.begin(), m->values.end(), see);
    return scale;
}

}  // namespace

void forgive_float_rounding(std::vector<GivenPart>& parts) {
    const Real allowance = Real(32) * Real(std::numeric_limits<float>::epsilon()) / 2;
    // a part that follows from earlier ones is float's only when no earlier part names a slip
    const bool slip_named = std::any_of(parts.begin(), parts.end(), [](const GivenPart& p) {
        return !p.result->diagnoses.empty() || (p.result->diagnosis && p.result->diagnosis->id != "float_precision");
    });
    std::vector<const GivenPart*> forgiven;
    int float_parts = 0;
    for (const GivenPart& g : parts) {
        const PartResult& p = *g.result;
        if (p.verdict == Verdict::correct && p.inexact && p.rel_error && *p.rel_error > float_rel_low) ++float_parts;
        const bool only_float = (!p.diagnosis || p.diagnosis->id == "float_precision") && p.diagnoses.empty();
        // float rounding: at most 32 roundings of the part's scale, and of the element's own size
        // at most 2^-18 (an answer off by 1e-5 of itself everywhere is a slip, not float)
        if (p.verdict != Verdict::wrong || !only_float || !p.abs_error || !p.rel_error || !g.expected ||
            g.spec->kind == AnswerKind::integer || *p.rel_error > 1.0 / (1 << 18) ||
            Real(*p.abs_error) > allowance * largest_magnitude(*g.expected))
            continue;
        if (!p.diagnosis && (!p.follow_through || slip_named)) continue;  // not float-sized, or following a slip
        forgiven.push_back(&g);
        ++float_parts;
    }
    if (float_parts < 2) return;
    for (const GivenPart* g : forgiven) {
        PartResult& p = *g->result;
        const Text asked = g->spec->precision.describe();
        p.verdict = Verdict::correct;
        p.score = p.max_score;
        p.follow_through.reset();
        p.notes.clear();
        p.inexact = true;
        p.diagnosis = Diagnosis{"float_precision", mistake_message("float_precision")};
        p.message = {fmt::format("correct within float rounding ({} asked: float arithmetic keeps about 7 digits, "
                                 "off by {:.1e} here)", asked.en, *p.abs_error),
                     fmt::format("在 float 舍入误差之内，判为正确（要求 {}：float 运算只保留约 7 位有效数字，这里差了 {:.1e}）",
                                 asked.zh, *p.abs_error)};
    }
}

}  // namespace blockcheck
