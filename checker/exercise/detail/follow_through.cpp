// Follow-through credit (diagnosis.hpp: follow_through_credit): a step computed correctly from the
// student's own wrong earlier values earns its points only where the error did not make the later
// work easier. The exam boards' rule, made checkable: the early value is one the step could have
// produced, and the later step really depends on it.
#include "checker/exercise/diagnosis.hpp"

#include <algorithm>
#include <cmath>

namespace blockcheck {
namespace {

// The numbers of a value in order (a number: itself); empty for a boolean, a choice, undefined.
std::vector<Real> step_numbers(const Value& v) {
    if (auto* x = std::get_if<Real>(&v)) return {*x};
    if (auto* vec = std::get_if<Vector<Real>>(&v)) return *vec;
    if (auto* m = std::get_if<Matrix<Real>>(&v)) return m->values;
    return {};
}

Real largest_of(const std::vector<Real>& xs) {
    using std::abs;
    Real most(0);
    for (const Real& x : xs) most = std::max(most, Real(abs(x)));
    return most;
}

// True when `given` looks like `candidate`: the same number of elements, the same order of
// magnitude (its largest element within a factor of 10 of the candidate's), and the same sign on
// every element the candidate does not hold at about zero (below 1e-3 of its largest).
bool alike_value(const std::vector<Real>& given, const std::vector<Real>& candidate) {
    using std::abs;
    if (given.size() != candidate.size() || candidate.empty()) return false;
    const Real g = largest_of(given), c = largest_of(candidate);
    if (c == 0 || g * 10 < c || g > c * 10) return false;
    for (std::size_t k = 0; k < given.size(); ++k) {
        if (abs(candidate[k]) <= c / 1000) continue;
        if (given[k] == 0 || (given[k] > 0) != (candidate[k] > 0)) return false;
    }
    return true;
}

// The value a step is handed when the early value changes: element k moved by (k + 1)/64 of itself,
// unevenly so that a normalisation or a ratio of two elements moves too; a whole number by at least 1.
Value nudged_value(Value v, bool whole) {
    using std::abs;
    using std::floor;
    std::size_t k = 0;
    auto move = [&](Real& x) {
        ++k;
        x = whole ? x + std::max(Real(1), Real(floor(abs(x) / 8))) : x * (Real(1) + Real(static_cast<long>(k)) / 64);
    };
    if (auto* x = std::get_if<Real>(&v)) move(*x);
    if (auto* vec = std::get_if<Vector<Real>>(&v)) std::for_each(vec->begin(), vec->end(), move);
    if (auto* m = std::get_if<Matrix<Real>>(&v)) std::for_each(m->values.begin(), m->values.end(), move);
    return v;
}

}  // namespace

bool plausible_step_value(const Value& given, const Value& right, const std::vector<const Value*>& mistaken) {
    const std::vector<Real> numbers = step_numbers(given);
    // degenerate: nothing, all zeros (tiny ones fail the magnitude below)
    if (numbers.empty() || largest_of(numbers) == 0) return false;
    if (alike_value(numbers, step_numbers(right))) return true;
    return std::any_of(mistaken.begin(), mistaken.end(), [&](const Value* m) { return alike_value(numbers, step_numbers(*m)); });
}

double follow_through_credit(const GivenPart& step, const std::vector<const GivenPart*>& feeds, const Values& given,
                             const Value& own, const std::map<std::string, Values>& mistakes, const AnswersFromGiven& answers) {
    const std::vector<Real> made = step_numbers(own);
    // a step made trivial by its inputs (zeros upstream) earns nothing
    if (made.empty() || largest_of(made) == 0) return 0;
    for (const GivenPart* feed : feeds) {
        if (feed->result->verdict == Verdict::correct) continue;  // only the carried error is looked at
        if (!feed->expected) return 0;
        const Value& printed = given.at(feed->spec->name);
        std::vector<const Value*> mistaken;  // what the catalogue's slips make of that earlier part
        for (const auto& [key, values] : mistakes)
            if (auto m = values.find(feed->spec->name); m != values.end()) mistaken.push_back(&m->second);
        if (!plausible_step_value(printed, *feed->expected, mistaken)) return 0;
        // non-trivial on it: the step moves when this early value moves
        Values moved = given;
        moved.at(feed->spec->name) = nudged_value(printed, feed->spec->kind == AnswerKind::integer);
        std::optional<ExpectedCase> again;
        try {
            again = answers(moved);
        } catch (const std::exception&) {
            return 0;
        }
        if (!again || !again->answers.count(step.spec->name) ||
            !changes_value(*step.spec, again->answers.at(step.spec->name), own))
            return 0;
    }
    return step.spec->points;
}

}  // namespace blockcheck
