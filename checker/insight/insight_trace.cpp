#include "checker/insight/insight_trace.hpp"

#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/protocol.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace blockcheck {
namespace {

const std::vector<std::string>* feeds_of(const Exercise& e, const std::string& part) {
    for (const auto& [name, feeds] : e.steps)
        if (name == part) return &feeds;
    return nullptr;
}

// The parts `part` is computed from, directly or through others (the declared steps).
std::set<std::string> upstream(const Exercise& e, const std::string& part) {
    std::set<std::string> found;
    std::vector<std::string> todo{part};
    while (!todo.empty()) {
        const std::string p = todo.back();
        todo.pop_back();
        if (const auto* feeds = feeds_of(e, p))
            for (const std::string& f : *feeds)
                if (found.insert(f).second) todo.push_back(f);
    }
    return found;
}

const PartRecord* part_record(const ExerciseRecord& r, const std::string& name) {
    for (const PartRecord& p : r.parts)
        if (p.name == name) return &p;
    return nullptr;
}

std::optional<Value> read_value(const std::string& text) {
    try {
        return to_value(parse_reading(text));
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// True when the printed `text` is `value` at the part's precision (other kinds: the same value).
bool matches(const AnswerSpec& spec, const std::string& text, const Value& value) {
    try {
        const Reading given = parse_reading(text);
        return within_tolerance(spec, given, value) || format_value(to_value(given), 20) == format_value(value, 20);
    } catch (const std::exception&) {
        return false;
    }
}

// True when `given`, printed for step `spec`, is what the reference computes from the student's
// own values (`own`) of the step's feeds; false for a first step (no feeds) or feeds not all known.
bool follows(const Exercise& e, const AnswerSpec& spec, const std::string& given, const Values& own) {
    const auto* feeds = feeds_of(e, spec.name);
    if (!feeds || feeds->empty()) return false;
    Values in;
    for (const std::string& f : *feeds) {
        if (!own.count(f)) return false;
        in.emplace(f, own.at(f));
    }
    try {
        const std::optional<ExpectedCase> from = e.expected->answers_from_given(e, e.inputs, in);
        return from && from->answers.count(spec.name) && matches(spec, given, from->answers.at(spec.name));
    } catch (const std::exception&) {
        return false;  // the student's values cannot feed the step (a shape, an undefined value)
    }
}

struct Departure {
    std::string step;
    Value value;  // the student's value there
    Values own;   // the student's values of the parts before it (the right ones where right)
};

// One student's first step, among `part` and the parts it is computed from (in the answers' order),
// that is wrong and does not follow from their own values of its feeds; nullopt when a part on the
// way has no readable printed value.
std::optional<Departure> departure(const Exercise& e, const ExerciseRecord& r, const Values& right, const std::string& part) {
    const std::set<std::string> path = upstream(e, part);
    Departure d;
    for (const AnswerSpec& a : e.answers) {
        if (a.name != part && !path.count(a.name)) continue;
        const PartRecord* p = part_record(r, a.name);
        if (!p) return std::nullopt;
        if (p->verdict == "correct") {
            if (right.count(a.name)) d.own.emplace(a.name, right.at(a.name));
            continue;
        }
        std::optional<Value> mine = p->verdict == "wrong" ? read_value(p->given) : std::nullopt;
        if (!mine) return std::nullopt;
        if (follows(e, a, p->given, d.own)) {
            d.own.emplace(a.name, *mine);
            continue;
        }
        d.step = a.name;
        d.value = *mine;
        return d;
    }
    return std::nullopt;
}

// Four significant digits: the same text on every machine.
double four_digits(double x) { return std::stod(fmt::format("{:.4g}", x)); }

// The mistakes of `made` that change `part`, by the distance of `answer` from their value there.
std::vector<NearMistake> nearest(const Value& answer, const ExpectedCase& made, const std::string& part) {
    std::vector<NearMistake> found;
    auto right = made.answers.find(part);
    if (right == made.answers.end()) return found;
    for (const auto& [key, values] : made.mistakes) {
        auto value = values.find(part);
        if (value == values.end() || same_answer(value->second, right->second)) continue;  // changes nothing here
        if (auto d = relative_distance(answer, value->second)) found.push_back({key, four_digits(*d)});
    }
    std::stable_sort(found.begin(), found.end(), [](const NearMistake& a, const NearMistake& b) { return a.distance < b.distance; });
    if (found.size() > closest_listed) found.resize(closest_listed);
    return found;
}

// The step most of the group's students depart at (ties: the earlier), with the mistakes nearest
// the first such student's value there, computed from their own values of its feeds.
void trace_departure(const Exercise& e, const ExpectedCase& book, const std::map<std::string, const StudentRecord*>& by_id,
                     SharedAnswer& g) {
    std::map<std::string, std::pair<std::size_t, Departure>> at;  // step -> students, the first one's
    for (const std::string& id : g.students) {
        auto s = by_id.find(id);
        const ExerciseRecord* r = s == by_id.end() ? nullptr : exercise_record(*s->second, e.id);
        if (!r) continue;
        if (std::optional<Departure> d = departure(e, *r, book.answers, g.part)) {
            auto [slot, fresh] = at.try_emplace(d->step, 0, *d);
            ++slot->second.first;
        }
    }
    const std::pair<std::size_t, Departure>* best = nullptr;
    for (const AnswerSpec& a : e.answers)
        if (auto it = at.find(a.name); it != at.end() && (!best || it->second.first > best->first)) best = &it->second;
    if (!best) return;
    const Departure& d = best->second;
    g.departs_at = d.step;
    g.departing = best->first;
    const auto* feeds = feeds_of(e, d.step);
    if (!feeds || feeds->empty()) {
        g.closest_at_step = nearest(d.value, book, d.step);  // a first step: from the book's inputs alone
        return;
    }
    Values in;
    for (const std::string& f : *feeds)
        if (d.own.count(f)) in.emplace(f, d.own.at(f));
    try {
        if (std::optional<ExpectedCase> from = e.expected->answers_from_given(e, e.inputs, in))
            g.closest_at_step = nearest(d.value, *from, d.step);
    } catch (const std::exception&) {
    }
}

std::optional<std::vector<Real>> numbers_of(const Value& v) {
    if (auto* x = std::get_if<Real>(&v)) return std::vector<Real>{*x};
    if (auto* vec = std::get_if<Vector<Real>>(&v)) return std::vector<Real>(vec->begin(), vec->end());
    if (auto* m = std::get_if<Matrix<Real>>(&v)) return m->values;
    return std::nullopt;
}

}  // namespace

std::optional<double> relative_distance(const Value& a, const Value& b) {
    const auto x = numbers_of(a), y = numbers_of(b);
    if (!x || !y || x->size() != y->size() || a.index() != b.index()) return std::nullopt;
    Real apart = 0, size = 0;
    for (std::size_t i = 0; i < x->size(); ++i) {
        apart += ((*x)[i] - (*y)[i]) * ((*x)[i] - (*y)[i]);
        size += (*y)[i] * (*y)[i];
    }
    using std::sqrt;
    // ||a - b|| / ||b||, or ||a - b|| when b is zero
    const Real d = size == 0 ? sqrt(apart) : sqrt(apart / size);
    return d.convert_to<double>();
}

std::string nearest_text(const std::vector<NearMistake>& closest, const std::string& step, const std::vector<NearMistake>& at_step,
                         Lang lang) {
    auto listed = [](const std::vector<NearMistake>& near) {
        std::string out;
        for (const NearMistake& m : near) out += fmt::format("{}{} {:g}", out.empty() ? "" : ", ", m.mistake, m.distance);
        return out;
    };
    std::string out = listed(closest);
    if (!at_step.empty())
        out += (out.empty() ? "" : std::string(tr(lang, "; ", "；"))) +
               tr_format(lang, "at step {step}, from their own earlier values: {near}", "在步骤 {step}，由他们自己的前面各步算出：{near}",
                         fmt::arg("step", step), fmt::arg("near", listed(at_step)));
    return out;
}

void trace_shared_answers(const ExerciseSet& set, const std::vector<StudentRecord>& students, std::vector<SharedAnswer>& groups) {
    std::map<std::string, const StudentRecord*> by_id;
    for (const StudentRecord& s : students) by_id.emplace(s.student, &s);
    std::map<std::string, std::optional<ExpectedCase>> book;  // exercise id -> its answers and mistakes
    for (SharedAnswer& g : groups) {
        const Exercise* e = set.find(g.exercise);
        if (!e) continue;
        auto [it, fresh] = book.try_emplace(g.exercise);
        if (fresh) try {
                it->second = e->expected->answers_and_mistakes(*e, e->inputs);
            } catch (const std::exception&) {
            }
        const std::optional<Value> answer = read_value(g.answer);
        if (!it->second || !answer) continue;
        const ExpectedCase& c = *it->second;
        if (auto right = c.answers.find(g.part); right != c.answers.end())
            if (auto d = relative_distance(*answer, right->second)) g.right_distance = four_digits(*d);
        g.closest = nearest(*answer, c, g.part);
        trace_departure(*e, c, by_id, g);
    }
}

}  // namespace blockcheck
