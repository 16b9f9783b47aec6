// The per-part tallies, the item statistics and the per-variant shares; the shared answers and
// programs come from insight_shared.cpp, the files from insight_write.cpp.
#include "checker/insight/insight.hpp"

#include "checker/exercise/variants.hpp"
#include "checker/insight/insight_shared.hpp"
#include "checker/insight/insight_stats.hpp"
#include "checker/insight/insight_trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

namespace blockcheck {

namespace {

const PartRecord* find_part(const ExerciseRecord* e, const std::string& name) {
    if (!e) return nullptr;
    for (const PartRecord& p : e->parts)
        if (p.name == name) return &p;
    return nullptr;
}

// Outcomes in the order they are listed and drawn: mistakes between float and follows, then other_wrong.
int rank_of(const std::string& outcome) {
    static const std::vector<std::string> order = {outcome::right, outcome::inexact, "mistake:", outcome::follows, outcome::other_wrong,
                                                   outcome::failed, outcome::not_done, outcome::grader_fault};
    if (outcome.starts_with("mistake:")) return 2;
    return static_cast<int>(std::find(order.begin(), order.end(), outcome) - order.begin());
}

PartInsight tally_part(const Exercise& e, const AnswerSpec& a, const std::vector<StudentRecord>& students) {
    PartInsight p{e.id, a.name, students.size()};
    std::map<std::string, std::vector<std::string>> groups;
    std::vector<double> item, rest;
    for (const StudentRecord& s : students) {
        const ExerciseRecord* r = exercise_record(s, e.id);
        const PartRecord* part = find_part(r, a.name);
        const std::string o = part_outcome(s, r, part);
        groups[o].push_back(s.student);
        const bool accepted = o == outcome::right || o == outcome::inexact;
        item.push_back(accepted ? 1.0 : 0.0);
        rest.push_back(s.score - (part ? part->score : 0.0));
    }
    for (auto& [o, who] : groups) p.outcomes.push_back({o, std::move(who)});
    std::stable_sort(p.outcomes.begin(), p.outcomes.end(), [](const OutcomeGroup& x, const OutcomeGroup& y) {
        const int rx = rank_of(x.outcome), ry = rank_of(y.outcome);
        if (rx != ry) return rx < ry;
        return x.students.size() > y.students.size();  // mistakes by count; the map ordered them by id
    });
    for (const OutcomeGroup& g : p.outcomes)
        if (g.outcome.starts_with("mistake:") || g.outcome == outcome::other_wrong) p.wrong_answers += g.students.size();
    p.unexplained = p.wrong_answers >= 3 && 2 * p.count(outcome::other_wrong) > p.wrong_answers;
    const std::size_t accepted = p.count(outcome::right) + p.count(outcome::inexact);
    p.difficulty = students.empty() ? 0 : double(accepted) / double(students.size());
    p.point_biserial = point_biserial(item, rest);
    if (p.point_biserial) p.upper_lower = upper_lower_index(item, rest);  // else every student scored the same
    p.flagged = p.point_biserial && *p.point_biserial < discrimination_flag_below;
    return p;
}

std::optional<double> number_of(const std::string& text) {
    double v = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (ec != std::errc() || ptr != end) return std::nullopt;
    return v;
}

// Many numeric values become four equal ranges between the smallest and largest drawn.
constexpr std::size_t max_listed_values = 8;

std::vector<VariantValue> bucketed(const std::map<std::string, VariantValue>& by_value) {
    std::vector<VariantValue> values;
    for (const auto& [text, v] : by_value) values.push_back(v);
    std::vector<double> numbers;
    for (const VariantValue& v : values)
        if (auto x = number_of(v.value)) numbers.push_back(*x);
    if (numbers.size() != values.size()) return values.size() <= max_listed_values ? values : std::vector<VariantValue>{};
    std::vector<std::pair<double, VariantValue>> sorted;
    for (std::size_t i = 0; i < values.size(); ++i) sorted.emplace_back(numbers[i], values[i]);
    std::sort(sorted.begin(), sorted.end(), [](auto& a, auto& b) { return a.first < b.first; });
    if (sorted.size() <= max_listed_values) {
        values.clear();
        for (auto& [x, v] : sorted) values.push_back(v);
        return values;
    }
    const double lo = sorted.front().first, hi = sorted.back().first, width = (hi - lo) / 4;
    std::vector<VariantValue> bins(4);
    for (std::size_t b = 0; b < 4; ++b)
        bins[b].value = fmt::format("[{:g}, {:g}{}", lo + width * double(b), b == 3 ? hi : lo + width * double(b + 1), b == 3 ? "]" : ")");
    for (auto& [x, v] : sorted) {
        const std::size_t b = std::min<std::size_t>(3, static_cast<std::size_t>((x - lo) / width));
        bins[b].students += v.students, bins[b].right += v.right;
    }
    return bins;
}

// Per parameter of the exercise's variants: students (who handed the exercise in) and those
// with every part right, per value drawn for them.
std::vector<VariantInsight> variant_insight(const Exercise& e, const std::vector<StudentRecord>& students) {
    std::vector<VariantInsight> out;
    if (!e.variants.is_object()) return out;
    for (const auto& [name, how] : e.variants.items()) {
        std::map<std::string, VariantValue> by_value;
        for (const StudentRecord& s : students) {
            const ExerciseRecord* r = s.error.empty() ? exercise_record(s, e.id) : nullptr;
            if (!r || !r->variant || r->status == "not_done" || r->has_grader_fault()) continue;
            for (const auto& [input, text] : variant_inputs(e, *r->variant))
                if (input == name) {
                    VariantValue& v = by_value[text];
                    v.value = text;
                    ++v.students;
                    v.right += r->status == "done";
                }
        }
        std::vector<VariantValue> values = bucketed(by_value);
        if (values.size() >= 2) out.push_back({e.id, name, std::move(values)});
    }
    return out;
}

}  // namespace

const ExerciseRecord* exercise_record(const StudentRecord& s, std::string_view id) {
    for (const ExerciseRecord& e : s.exercises)
        if (e.id == id) return &e;
    return nullptr;
}

std::size_t PartInsight::count(std::string_view o) const {
    for (const OutcomeGroup& g : outcomes)
        if (g.outcome == o) return g.students.size();
    return 0;
}

std::string part_outcome(const StudentRecord& s, const ExerciseRecord* e, const PartRecord* p) {
    if (!s.error.empty() || !e || !p) return outcome::not_done;
    const std::string& v = p->verdict;
    if (v == "correct") return p->diagnosis_id == "float_precision" ? outcome::inexact : outcome::right;
    if (v == "missing") return outcome::not_done;
    if (v == "grader_fault") return outcome::grader_fault;
    if (v == "wrong" && p->follows) return outcome::follows;
    if (v == "wrong" || v == "too_few_digits" || v == "unparseable")
        return p->diagnosis_id.empty() ? outcome::other_wrong : "mistake:" + p->diagnosis_id;
    return outcome::failed;  // compile_error, crashed, timed_out, output_limit
}

Insight compute_insight(const ExerciseSet& set, const std::vector<StudentRecord>& students) {
    Insight in;
    in.students = students.size();
    in.variants = std::any_of(students.begin(), students.end(), [](const StudentRecord& s) { return s.variants; });
    for (const Exercise& e : set.all()) {
        for (const AnswerSpec& a : e.answers) in.parts.push_back(tally_part(e, a, students));
        if (in.variants)
            for (VariantInsight& v : variant_insight(e, students)) in.variant_parameters.push_back(std::move(v));
    }
    in.shared_answers = shared_answers(set, students);
    trace_shared_answers(set, students, in.shared_answers);
    in.shared_code = shared_code(set, students, in.common_code);
    for (const StudentRecord& s : students)
        for (const ExerciseRecord& e : s.exercises)
            if (auto parts = printed_constant_parts(e); !parts.empty() && s.error.empty())
                in.printed_constants.push_back({s.student, e.id, std::move(parts), e.variant});
    return in;
}

}  // namespace blockcheck
