#include "checker/exercise/diagnosis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

namespace blockcheck {
namespace {

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

struct Factor {
    Real value;
    std::string text;  // "2", "1/2", "sqrt(2)", ...
};

// The simple factors a value is often off by: 2, sqrt(2), sqrt(n), n and their inverses (n:
// elements of a row, the width a mean or a 1/sqrt(d) runs over).
std::vector<Factor> simple_factors(const Value& expected) {
    using std::sqrt;
    std::size_t n = 0;
    if (auto* vec = std::get_if<Vector<Real>>(&expected)) n = vec->size();
    if (auto* m = std::get_if<Matrix<Real>>(&expected)) n = m->cols;
    std::vector<Factor> factors;
    auto both = [&](const Real& f, const std::string& text) {
        factors.push_back({f, text});
        factors.push_back({Real(1) / f, "1/" + text});
    };
    both(Real(2), "2");
    both(sqrt(Real(2)), "sqrt(2)");  // the 1/sqrt(d) of the chapter's two-dimensional heads
    if (n > 2) {
        both(sqrt(Real(static_cast<long>(n))), fmt::format("sqrt({})", n));
        both(Real(static_cast<long>(n)), std::to_string(n));
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

// What a 32-bit signed int holds for the whole number x: x mod 2^32 in [-2^31, 2^31).
std::optional<Real> int32_wrapped(const Value& expected) {
    const auto* x = std::get_if<Real>(&expected);
    const Real two31("2147483648"), two32("4294967296");
    if (!x || (*x < two31 && *x >= -two31)) return std::nullopt;
    using std::floor;
    Real r = *x - floor(*x / two32) * two32;
    if (r >= two31) r -= two32;
    return r;
}

// True when what was read fits `value` at the part's precision (booleans, choices: equal).
bool fits(const AnswerSpec& spec, const Reading& given, const Value& value) {
    const bool given_undefined = std::holds_alternative<Undefined>(given);
    if (given_undefined || std::holds_alternative<Undefined>(value))
        return given_undefined && std::holds_alternative<Undefined>(value);
    if (is_numeric(spec.kind)) return within_tolerance(spec, given, value);
    try {
        return format_value(to_value(given), 20) == format_value(value, 20);
    } catch (const std::exception&) {
        return false;
    }
}

// True when the mistake's value would not pass as the right one.
bool changes(const AnswerSpec& spec, const Value& mistaken, const Value& expected) {
    try {
        return !fits(spec, parse_reading(format_value(mistaken, 40)), expected);
    } catch (const std::exception&) {
        return format_value(mistaken, 40) != format_value(expected, 40);
    }
}

// The key's parameter: "pi_truncated/3.14" -> "3.14"; "" when it has none.
std::string mistake_parameter(const std::string& key) {
    const auto slash = key.find('/');
    return slash == std::string::npos ? "" : key.substr(slash + 1);
}

std::string fill(std::string text, const std::string& parameter) {
    for (const char* slot : {"{pi}", "{factor}"})
        for (auto at = text.find(slot); at != std::string::npos; at = text.find(slot))
            text.replace(at, std::string_view(slot).size(), parameter);
    return text;
}

Diagnosis named(const std::string& key) { return {mistake_id(key), mistake_message(key)}; }

// The generic mistakes one wrong part's value fits (read off the expected value).
std::vector<std::string> generic_fits(const AnswerSpec& spec, const PartResult& part, const Reading& given,
                                      const Value& expected) {
    std::vector<std::string> found;
    if (float_sized(part)) return {"float_precision"};
    if (spec.kind == AnswerKind::integer)
        if (auto wrapped = int32_wrapped(expected); wrapped && within_tolerance(spec, given, Value(*wrapped)))
            found.push_back("int32_wrap");
    if (all_zero(expected)) return found;
    if (angle_in_degrees(spec) && within_tolerance(spec, given, scaled_value(expected, one_degree())))
        found.push_back("radians_as_degrees");
    if (within_tolerance(spec, given, scaled_value(expected, Real(-1)))) found.push_back("sign_flipped");
    if (auto* m = std::get_if<Matrix<Real>>(&expected); m && within_tolerance(spec, given, Value(transpose(*m))))
        found.push_back("transposed");
    if (permuted(spec, given, expected)) found.push_back("permuted");
    for (const Factor& f : simple_factors(expected))
        if (within_tolerance(spec, given, scaled_value(expected, f.value))) {
            found.push_back("scaled/" + f.text);
            break;
        }
    return found;
}

}  // namespace

std::string mistake_id(const std::string& key) { return key.substr(0, key.find('/')); }

Text mistake_message(const std::string& key) {
    const MistakeEntry* entry = find_mistake(mistake_id(key));
    if (!entry) throw std::out_of_range("no mistake \"" + key + "\" in data/mistakes.json");
    const std::string parameter = mistake_parameter(key);
    return {fill(entry->message.en, parameter), fill(entry->message.zh, parameter)};
}

const std::vector<std::string>& generic_mistakes() {
    static const std::vector<std::string> all = [] {
        std::vector<std::string> ids;
        for (const MistakeEntry& m : mistake_catalogue())
            if (m.made_by == "inputs" || m.made_by == "expected") ids.push_back(m.id);
        return ids;
    }();
    return all;
}

bool derived_from_expected(const std::string& id) {
    const MistakeEntry* entry = find_mistake(mistake_id(id));
    return entry && entry->made_by == "expected";
}

bool known_mistake(const std::string& id) { return find_mistake(id) != nullptr; }

std::vector<std::string> explaining_mistakes(const std::vector<GivenPart>& parts,
                                             const std::map<std::string, Values>& mistakes) {
    std::vector<std::string> keys;
    for (const auto& [key, values] : mistakes) {
        bool explains = true, shown = false;
        for (const GivenPart& p : parts) {
            if (!p.given || !p.expected) continue;  // a part never printed neither fits nor contradicts
            auto made = values.find(p.spec->name);
            const bool changed = made != values.end() && changes(*p.spec, made->second, *p.expected);
            // by value: a part short of digits but right so far is right here
            const bool right = fits(*p.spec, p.given->value, *p.expected);
            const bool made_here = changed && fits(*p.spec, p.given->value, made->second);
            if (made_here && !right)
                shown = true;
            else if (made_here)
                ;  // the printed value fits the mistake's and the right one alike: no evidence either way
            else if (changed || !right)
                explains = false;
            if (!explains) break;
        }
        if (explains && shown) keys.push_back(key);
    }
    return keys;
}

bool fits_value(const AnswerSpec& spec, const Reading& given, const Value& value) { return fits(spec, given, value); }

bool changes_value(const AnswerSpec& spec, const Value& mistaken, const Value& expected) {
    return changes(spec, mistaken, expected);
}

std::vector<std::string> explanation_ids(const Explanation& explanation) {
    std::vector<std::string> ids;
    for (const std::string& key : explanation.keys) ids.push_back(mistake_id(key));
    return ids;
}

void name_explanation_on(PartResult& part, const Explanation& explanation) {
    if (part.diagnosis || !part.diagnoses.empty() || part.follow_through ||
        std::find(explanation.parts.begin(), explanation.parts.end(), part.name) == explanation.parts.end())
        return;
    if (explanation.keys.size() == 1) part.diagnosis = named(explanation.keys.front());
    else
        for (const std::string& key : explanation.keys) part.diagnoses.push_back(named(key));
}

void name_explanation(std::vector<PartResult>& parts, const Explanation& explanation) {
    for (PartResult& part : parts) name_explanation_on(part, explanation);
}

// The single mistakes that explain the whole program, one explanation an id (its keys' parameters
// merged: pi typed as 3.14 or 3.1416 gives the same numbers at the digits printed).
static std::vector<Explanation> single_explanations(const std::vector<GivenPart>& parts,
                                                    const std::map<std::string, Values>& mistakes) {
    std::map<std::string, std::vector<std::string>> keys;  // id -> its explaining keys
    for (const std::string& key : explaining_mistakes(parts, mistakes))
        if (!is_mistake_pair(key)) keys[mistake_id(key)].push_back(key);
    std::vector<Explanation> found;
    for (const auto& [id, same] : keys) {
        std::string parameters;
        for (const std::string& key : same)
            if (!mistake_parameter(key).empty()) parameters += (parameters.empty() ? "" : " / ") + mistake_parameter(key);
        Explanation e{{id + (parameters.empty() ? "" : "/" + parameters)}, {}};
        const Values& values = mistakes.at(same.front());
        for (const GivenPart& p : parts) {
            auto made = values.find(p.spec->name);
            // never on a part printed right (its value fits the mistake's and the right one alike)
            if (p.given && p.expected && made != values.end() && changes(*p.spec, made->second, *p.expected) &&
                !fits(*p.spec, p.given->value, *p.expected))
                e.parts.push_back(p.spec->name);
        }
        found.push_back(std::move(e));
    }
    return found;
}

std::vector<Explanation> diagnose_program(std::vector<GivenPart>& parts, const std::map<std::string, Values>& mistakes,
                                          const PairAnswers& pairs) {
    std::vector<Explanation> found = single_explanations(parts, mistakes);
    if (found.empty() && pairs) found = pair_explanations(parts, mistakes, pairs);  // two at once, only now
    if (found.size() == 1) {  // one explanation of it all: named on each part it changes
        for (GivenPart& p : parts) name_explanation_on(*p.result, found.front());
        return {};
    }
    if (found.size() > 1) return found;  // alike here: the confirming runs tell them apart
    const bool any_wrong = std::any_of(parts.begin(), parts.end(), [](const GivenPart& p) {
        return p.given && p.result->verdict == Verdict::wrong;
    });
    for (GivenPart& p : parts) {
        if (!p.given || !p.expected || !is_numeric(p.spec->kind)) continue;
        const PartResult& r = *p.result;
        if (r.verdict == Verdict::correct) {
            // float only where nothing else is wrong: a slip upstream leaves its trace below the digits asked
            if (r.inexact && float_sized(r) && !any_wrong) p.result->diagnosis = named("float_precision");
            continue;
        }
        if (r.verdict != Verdict::wrong) continue;
        // a declared mistake that fits this part but not the program: the value is no evidence
        const bool coincides = std::any_of(mistakes.begin(), mistakes.end(), [&](const auto& m) {
            auto made = m.second.find(p.spec->name);
            return made != m.second.end() && changes(*p.spec, made->second, *p.expected) &&
                   fits(*p.spec, p.given->value, made->second);
        });
        if (coincides) continue;
        const std::vector<std::string> generic = generic_fits(*p.spec, r, p.given->value, *p.expected);
        if (generic.size() == 1) p.result->diagnosis = named(generic.front());
    }
    return {};
}

}  // namespace blockcheck

namespace blockcheck {
namespace {

GivenPart* part_named(std::vector<GivenPart>& parts, const std::string& name) {
    for (GivenPart& p : parts)
        if (p.spec->name == name) return &p;
    return nullptr;
}

// "gate and up" / "gate 和 up"
Text names_text(const std::vector<std::string>& names) {
    Text t;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const bool last = i + 1 == names.size();
        t.en += (i == 0 ? "" : last ? " and " : ", ") + names[i];
        t.zh += (i == 0 ? "" : last ? " 和 " : "、") + names[i];
    }
    return t;
}

// The one mistake id (with its key) whose value of this step, from the student's own inputs to
// it, the student printed; nullopt when none or more than one.
std::optional<std::string> step_mistake(const GivenPart& p, const ExpectedCase& from_own) {
    const Value& right = from_own.answers.at(p.spec->name);
    std::set<std::string> ids;
    std::string key;
    for (const auto& [k, values] : from_own.mistakes) {
        auto made = values.find(p.spec->name);
        if (made == values.end() || !changes(*p.spec, made->second, right) || !fits(*p.spec, p.given->value, made->second))
            continue;
        ids.insert(mistake_id(k));
        key = k;
    }
    if (ids.size() == 1) return key;
    if (!ids.empty()) return std::nullopt;
    PartResult unsized = *p.result;
    unsized.rel_error.reset();  // a float-sized error was judged against the right value already
    const std::vector<std::string> found = generic_fits(*p.spec, unsized, p.given->value, right);
    if (found.size() == 1) return found.front();
    return std::nullopt;
}

}  // namespace

bool mistake_changes(const AnswerSpec& spec, const Value& mistaken, const Value& expected) {
    return changes(spec, mistaken, expected);
}

bool float_sized(const PartResult& part) {
    return part.rel_error && *part.rel_error > float_rel_low && *part.rel_error <= float_rel_high;
}

bool same_answer(const Value& a, const Value& b) {
    auto numbers = [](const Value& v) -> const std::vector<Real>* {
        if (auto* vec = std::get_if<Vector<Real>>(&v)) return vec;
        if (auto* m = std::get_if<Matrix<Real>>(&v)) return &m->values;
        return nullptr;
    };
    using std::abs;
    auto close = [](const Real& x, const Real& y) { return abs(x - y) <= Real("1e-30") * (Real(1) + abs(x)); };
    if (auto* x = std::get_if<Real>(&a)) return std::holds_alternative<Real>(b) && close(*x, std::get<Real>(b));
    const auto *u = numbers(a), *w = numbers(b);
    if (u && w) {
        if (u->size() != w->size() || a.index() != b.index()) return false;
        for (std::size_t i = 0; i < u->size(); ++i)
            if (!close((*u)[i], (*w)[i])) return false;
        return true;
    }
    return format_value(a, 20) == format_value(b, 20);
}

bool same_answers(const Values& a, const Values& b) {
    for (const auto& [name, value] : a) {
        const auto other = b.find(name);
        if (other == b.end() || !same_answer(value, other->second)) return false;
    }
    return true;
}

std::vector<Diagnosis> named_diagnoses(const PartResult& part) {
    std::vector<Diagnosis> all = part.diagnoses;
    if (part.diagnosis) all.insert(all.begin(), *part.diagnosis);
    return all;
}

void diagnose_steps(std::vector<GivenPart>& parts, const Steps& steps, const std::map<std::string, Values>& mistakes,
                    const AnswersFromGiven& answers) {
    for (const auto& [name, feeds] : steps) {
        GivenPart* p = part_named(parts, name);
        // a float-sized error read off the right value is only a guess: the step from the student's
        // own earlier values may show the error came from there (then the float note goes)
        const std::vector<Diagnosis> before = p ? named_diagnoses(*p->result) : std::vector<Diagnosis>{};
        const bool float_guess = before.size() == 1 && before.front().id == "float_precision";
        // so is a sign or a factor read off it: a catalogue slip made in this step says more
        const bool value_guess = before.size() == 1 && !float_guess && derived_from_expected(before.front().id);
        // a mistake of the whole program named here may have been made earlier: this step may follow
        const bool named_whole = !before.empty() && !float_guess && !value_guess;
        // a step with no feeds is judged with the whole program, never alone: diagnose_program has
        // done that (a mistake explaining the whole program, else a slip read off the value)
        if (!p || feeds.empty() || !p->given || !p->expected || !is_numeric(p->spec->kind) ||
            p->result->verdict != Verdict::wrong)
            continue;
        Values given;
        std::vector<const GivenPart*> fed;
        bool feeds_right = true, printed = true;
        for (const std::string& feed : feeds) {
            const GivenPart* f = part_named(parts, feed);
            if (!f || !f->given) {
                printed = false;
                break;
            }
            try {
                given.emplace(feed, to_value(f->given->value));
            } catch (const std::exception&) {
                printed = false;
                break;
            }
            fed.push_back(f);
            feeds_right = feeds_right && f->result->verdict == Verdict::correct;
        }
        if (!printed) continue;
        std::optional<ExpectedCase> from_own;
        try {
            from_own = answers(given);
        } catch (const std::exception&) {
            continue;  // the student's values cannot feed this step (a shape, an undefined value)
        }
        if (!from_own || !from_own->answers.count(name)) continue;
        const Value& own = from_own->answers.at(name);
        if (!feeds_right && fits(*p->spec, p->given->value, own)) {
            const Text from = names_text(feeds);
            p->result->notes.push_back({"follows correctly from your own " + from.en + "; the slip is earlier",
                                        "由你自己的 " + from.zh + " 正确推出；错误在前面的步骤"});
            p->result->follow_through = follow_through_credit(*p, fed, given, own, mistakes, answers);
            // the slip is named where it is made, not on the steps that follow from it
            p->result->diagnosis.reset();
            p->result->diagnoses.clear();
            continue;
        }
        if (float_guess || named_whole) continue;  // no step mistake replaces what float or the whole program explains
        if (auto key = step_mistake(*p, *from_own)) {
            Diagnosis d = named(*key);
            const Text from = names_text(feeds);
            d.message = {d.message.en + " (in this step, computed from your own " + from.en + ")",
                         d.message.zh + "（在这一步，由你自己的 " + from.zh + " 算出）"};
            p->result->diagnosis = d;
        }
    }
}

}  // namespace blockcheck
