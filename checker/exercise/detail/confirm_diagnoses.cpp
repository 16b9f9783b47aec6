// Confirmation on other inputs (grading.hpp: confirm_diagnoses): an explanation named on the
// book's inputs, or one of several that fit there alike, must reproduce the program's numbers on
// variants chosen to tell the explanations apart. Never named by coincidence.
#include "checker/exercise/grading.hpp"
#include "checker/exercise/mistake_catalogue.hpp"
#include "checker/exercise/variants.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <set>

namespace blockcheck {
namespace {

// Seeded variants looked at to find `confirming_variants` that tell the explanations apart.
constexpr int confirming_tries = 6;

// The explanations named on the parts, a mistake read off the expected value left out (a sign, a
// factor: the value itself is the evidence): one per id, or per pair, with the parts it is named on.
std::vector<Explanation> named_explanations(const ExerciseResult& result) {
    std::vector<Explanation> found;
    auto add = [&](std::vector<std::string> ids, const std::string& part) {
        auto same = std::find_if(found.begin(), found.end(), [&](const Explanation& e) { return e.keys == ids; });
        if (same == found.end()) found.push_back({std::move(ids), {part}});
        else same->parts.push_back(part);
    };
    for (const PartResult& p : result.parts) {
        if (p.diagnosis && !derived_from_expected(p.diagnosis->id)) add({p.diagnosis->id}, p.name);
        if (p.diagnoses.size() == 2) add({p.diagnoses[0].id, p.diagnoses[1].id}, p.name);
    }
    return found;
}

// One case's right answers and what each explanation makes of them.
struct ConfirmingCase {
    InputList inputs;
    ExpectedCase answers;
    std::vector<std::vector<Values>> made;  // per explanation: the answers of each of its keys (none: not made here)
};

// The answers an explanation gives on a case: each key of its one mistake (pi typed short, to any
// of its lengths), or its pair's.
std::vector<Values> explanation_answers(const Exercise& exercise, const InputList& inputs, const ExpectedCase& c,
                                        const Explanation& x) {
    std::vector<Values> all;
    if (x.keys.size() == 2) {
        try {
            for (auto& [key, values] : exercise.expected->pair_mistakes(exercise, inputs, {{x.keys[0], x.keys[1]}}))
                all.push_back(values);
        } catch (const std::exception&) {
        }
        return all;
    }
    if (x.keys.front().starts_with("tape:")) {  // the error model's change (or a tie's, "a|b"), replayed here
        for (std::size_t from = 0, bar = 0; from != std::string::npos; from = bar == std::string::npos ? bar : bar + 1) {
            bar = x.keys.front().find('|', from);
            try {
                if (auto made = exercise.expected->model_change(exercise, inputs, x.keys.front().substr(from, bar - from)))
                    all.push_back(std::move(*made));
            } catch (const std::exception&) {
            }
        }
        return all;
    }
    const std::string id = mistake_id(x.keys.front());
    for (const auto& [key, values] : c.mistakes)
        if (!is_mistake_pair(key) && mistake_id(key) == id) all.push_back(values);
    return all;
}

// True when some answer of `made` differs from the right one far above the reference's rounding.
bool shows(const Values& made, const Values& right, const std::vector<std::string>& parts = {}) {
    for (const auto& [name, value] : made)
        if ((parts.empty() || std::find(parts.begin(), parts.end(), name) != parts.end()) && right.count(name) &&
            !same_answer(value, right.at(name)))
            return true;
    return false;
}

// True when some answer of `made` on `parts` would not pass as the right one at its part's declared
// precision (an angle modulo a full turn): a program making the slip is graded wrong there.
bool graded_apart(const Exercise& exercise, const Values& made, const Values& right, const std::vector<std::string>& parts) {
    for (const AnswerSpec& spec : exercise.answers) {
        if (std::find(parts.begin(), parts.end(), spec.name) == parts.end()) continue;
        auto m = made.find(spec.name);
        auto r = right.find(spec.name);
        if (m != made.end() && r != right.end() && mistake_changes(spec, m->second, r->second)) return true;
    }
    return false;
}

// True when the explanation's answers have no value where the right ones have: a program prints
// something there (nan, inf) that says nothing either way.
bool undefined_here(const Values& made, const Values& right) {
    return std::any_of(made.begin(), made.end(), [&](const auto& answer) {
        return std::holds_alternative<Undefined>(answer.second) && right.count(answer.first) &&
               !std::holds_alternative<Undefined>(right.at(answer.first));
    });
}

// True when every explanation (of the first `count`) changes an answer on the case, with values a
// program can print, and no two give the same answers.
bool tells_apart(const ConfirmingCase& c, std::size_t count) {
    for (std::size_t i = 0; i < count && i < c.made.size(); ++i) {
        if (c.made[i].empty() || !shows(c.made[i].front(), c.answers.answers) ||
            undefined_here(c.made[i].front(), c.answers.answers))
            return false;
        for (std::size_t j = 0; j < i; ++j)
            if (!c.made[j].empty() && same_answers(c.made[i].front(), c.made[j].front())) return false;
    }
    return true;
}

// The index of the catalogue mistake the rivals are of, among the explanations before `first_rival`;
// `first_rival` when there are none.
std::size_t rival_of(const std::vector<Explanation>& all, std::size_t first_rival, const std::vector<Rival>& rivals) {
    for (std::size_t i = 0; !rivals.empty() && i < first_rival; ++i)
        if (all[i].keys == std::vector{rivals.front().of}) return i;
    return first_rival;
}

bool same_slip(const Exercise& exercise, const Explanation& x, const Explanation& rival);

// True when rival `i` gives other answers than explanation `x` on the case.
bool rival_apart(const ConfirmingCase& c, std::size_t x, std::size_t i) {
    return !c.made[i].empty() && !c.made[x].empty() && !same_answers(c.made[i].front(), c.made[x].front());
}

// How many rivals (explanations from `first_rival`) give other answers than explanation `x` on the case.
std::size_t rivals_apart(const ConfirmingCase& c, std::size_t x, std::size_t first_rival) {
    std::size_t apart = 0;
    for (std::size_t i = first_rival; x < first_rival && i < c.made.size(); ++i) apart += rival_apart(c, x, i);
    return apart;
}

// The confirming cases: of the first `confirming_tries` variants seeded from the student and the
// exercise (in the student edition, among those it carries), the first `confirming_variants` that
// tell the explanations before `first_rival` apart (where explanation `x` has rivals, those that
// tell the most of its rivals from it first), completed in seed order by those that do not. Then,
// for each rival (from `first_rival`) these tell from `x` nowhere and that is not x's own slip, one
// more case that does: the first of variants 1 to `same_slip_variants` that does, the very
// variants same_slip found them apart on (in the student edition, seeded among those it carries).
std::vector<ConfirmingCase> confirming_cases(const Exercise& exercise, const std::string& student,
                                             const std::vector<Explanation>& all, std::size_t first_rival, std::size_t x) {
    const auto carried = exercise.expected->carried_variants();
    const bool rivals = first_rival < all.size() && x < first_rival;
    std::set<std::string> seen;
    // the k-th case seeded from the student; with `fixed`, variant k itself (as same_slip judges)
    auto case_of = [&](int k, bool fixed = false) -> std::optional<ConfirmingCase> {
        std::uint64_t seed = fixed ? std::uint64_t(k) : variant_seed(student + "/confirm/" + std::to_string(k), exercise.id);
        if (carried) seed = (*carried)[seed % carried->size()];
        ConfirmingCase c{variant_inputs(exercise, seed), {}, {}};
        if (!seen.insert(case_key(c.inputs)).second) return std::nullopt;
        try {
            c.answers = expected_answers_and_mistakes(exercise, c.inputs);
        } catch (const std::exception&) {
            return std::nullopt;  // no answers here: no evidence either way
        }
        for (const Explanation& e : all) c.made.push_back(explanation_answers(exercise, c.inputs, c.answers, e));
        return c;
    };
    std::vector<ConfirmingCase> apart, rest;
    for (int k = 0; k < confirming_tries && (rivals || static_cast<int>(apart.size()) < confirming_variants); ++k)
        if (std::optional<ConfirmingCase> c = case_of(k)) (tells_apart(*c, first_rival) ? apart : rest).push_back(std::move(*c));
    std::stable_sort(apart.begin(), apart.end(), [&](const ConfirmingCase& a, const ConfirmingCase& b) {
        return rivals_apart(a, x, first_rival) > rivals_apart(b, x, first_rival);
    });
    if (apart.size() > static_cast<std::size_t>(confirming_variants)) apart.resize(confirming_variants);
    for (std::size_t i = 0; apart.size() < static_cast<std::size_t>(confirming_variants) && i < rest.size(); ++i)
        apart.push_back(std::move(rest[i]));
    for (std::size_t i = first_rival; rivals && i < all.size(); ++i) {
        if (std::any_of(apart.begin(), apart.end(), [&](const ConfirmingCase& c) { return rival_apart(c, x, i); }) ||
            same_slip(exercise, all[x], all[i]))
            continue;
        for (int k = 1; k <= same_slip_variants; ++k) {
            std::optional<ConfirmingCase> c = case_of(k, !carried);
            if (c && rival_apart(*c, x, i)) {
                apart.push_back(std::move(*c));
                break;
            }
        }
    }
    return apart;
}

// True when `ids` are all named on some part of `other`, or are one of its candidates.
bool named_again(const ExerciseResult& other, const std::vector<std::string>& ids) {
    std::set<std::string> there;
    for (const PartResult& p : other.parts)
        for (const Diagnosis& d : named_diagnoses(p)) there.insert(d.id);
    if (std::all_of(ids.begin(), ids.end(), [&](const std::string& id) { return there.count(id) > 0; })) return true;
    return std::any_of(other.candidates.begin(), other.candidates.end(),
                       [&](const Explanation& c) { return explanation_ids(c) == ids; }) ||
           std::any_of(other.rivals.begin(), other.rivals.end(), [&](const Rival& r) { return r.explanation.keys == ids; });
}

// True when one of the answer sets `made` explains the program's output on the case (every part it
// changes has its value, every other part is right: explaining_mistakes).
bool reproduces(const Exercise& exercise, const ExerciseResult& other, const ConfirmingCase& c, const std::vector<Values>& made) {
    const ProgramOutput printed = parse_program_output(other.output);
    std::vector<PartResult> results = other.parts;
    std::vector<GivenPart> parts;
    for (std::size_t i = 0; i < exercise.answers.size() && i < results.size(); ++i) {
        auto line = printed.answers.find(exercise.answers[i].name);
        auto want = c.answers.answers.find(exercise.answers[i].name);
        parts.push_back({&exercise.answers[i], &results[i], line == printed.answers.end() ? nullptr : &line->second,
                         want == c.answers.answers.end() ? nullptr : &want->second});
    }
    std::map<std::string, Values> candidates;
    for (std::size_t i = 0; i < made.size(); ++i) candidates.emplace(std::to_string(i), made[i]);
    return !explaining_mistakes(parts, candidates).empty();
}

// True when explanation `x` (the `index`th) holds on the case the program gave `other` on: named
// there again, its answers there the program's, or changing nothing on its parts there, where the
// program is right (or follows from its own earlier values: a case cannot tell).
bool holds_on(const Exercise& exercise, const Explanation& x, std::size_t index, const ConfirmingCase& c,
              const ExerciseResult& other) {
    if (named_again(other, explanation_ids(x))) return true;
    const std::vector<Values>& made = c.made[index];
    if (!made.empty() && reproduces(exercise, other, c, made)) return true;
    // no value where the right answer has one (a zero denominator): whatever the program prints
    // there, nan or a crash, cannot tell it from the explanation
    if (std::any_of(made.begin(), made.end(), [&](const Values& v) { return undefined_here(v, c.answers.answers); }))
        return true;
    const bool changes_there = std::any_of(made.begin(), made.end(), [&](const Values& v) { return graded_apart(exercise, v, c.answers.answers, x.parts); });
    return std::all_of(other.parts.begin(), other.parts.end(), [&](const PartResult& p) {
        const bool its = std::find(x.parts.begin(), x.parts.end(), p.name) != x.parts.end();
        return !its || p.follow_through.has_value() || (p.verdict == Verdict::correct && !changes_there);
    });
}

// A word read off one part's own value: a generic mistake (a sign, a factor, a transpose, a 32-bit
// wrap, an angle in radians; float_precision is a size, not a word) or a property its numbers
// break. Said only when the program earns the same word on the same part on every confirming case.
struct ValueWord {
    std::string part, text;  // the part, and the word's English text (the diagnosis message or the note)
    bool note = false;       // a property note, else a diagnosis
};

std::vector<ValueWord> value_words(const ExerciseResult& result) {
    std::vector<ValueWord> words;
    for (const PartResult& p : result.parts) {
        if (p.diagnosis && derived_from_expected(p.diagnosis->id) && p.diagnosis->id != "float_precision" &&
            p.diagnosis->id != "hard_coded")
            words.push_back({p.name, p.diagnosis->message.en, false});
        for (const Text& note : p.notes)
            if (is_property_note(note)) words.push_back({p.name, note.en, true});
    }
    return words;
}

// True when every number of a value is zero (a boolean, a choice: false).
bool all_zeros(const Value& v) {
    if (auto* x = std::get_if<Real>(&v)) return *x == 0;
    const std::vector<Real>* xs = std::get_if<Vector<Real>>(&v);
    if (auto* m = std::get_if<Matrix<Real>>(&v)) xs = &m->values;
    return xs && std::all_of(xs->begin(), xs->end(), [](const Real& x) { return x == 0; });
}

const PartResult* part_of(const ExerciseResult& r, const std::string& name) {
    auto it = std::find_if(r.parts.begin(), r.parts.end(), [&](const PartResult& p) { return p.name == name; });
    return it == r.parts.end() ? nullptr : &*it;
}

// True when the word is said again on the case's run (`other`), or the case cannot show it: the
// part's right value there is about zero (no sign, no factor to read).
bool word_holds(const ValueWord& w, const ConfirmingCase& c, const ExerciseResult& other) {
    const PartResult* p = part_of(other, w.part);
    if (!p) return false;
    if (!w.note && p->diagnosis && p->diagnosis->message.en == w.text) return true;
    if (w.note && std::any_of(p->notes.begin(), p->notes.end(), [&](const Text& n) { return n.en == w.text; })) return true;
    auto right = c.answers.answers.find(w.part);
    return !w.note && right != c.answers.answers.end() && all_zeros(right->second);
}

// Takes the words not confirmed off the parts.
void unsay(ExerciseResult& result, const std::vector<ValueWord>& words) {
    for (const ValueWord& w : words)
        for (PartResult& p : result.parts) {
            if (p.name != w.part) continue;
            if (!w.note && p.diagnosis && p.diagnosis->message.en == w.text) p.diagnosis.reset();
            if (w.note) std::erase_if(p.notes, [&](const Text& n) { return n.en == w.text; });
        }
}

std::string unspaced(const std::string& text) {
    std::string out;
    for (char ch : text)
        if (ch != ' ' && ch != '\t') out += ch;
    return out;
}

// True when `part` printed the same on the case as on the book's inputs and is wrong there: a
// value that does not move with the inputs.
bool constant_there(const PartResult& book, const ExerciseResult& other) {
    const PartResult* p = part_of(other, book.name);
    return p && !book.given.empty() && p->verdict != Verdict::correct && unspaced(p->given) == unspaced(book.given);
}

// The wrong parts `name` is computed from, directly or through earlier steps (Exercise::steps).
void wrong_ancestors(const Exercise& exercise, const ExerciseResult& result, const std::string& name,
                     std::vector<const PartResult*>& found) {
    auto step = std::find_if(exercise.steps.begin(), exercise.steps.end(), [&](const auto& s) { return s.first == name; });
    if (step == exercise.steps.end()) return;
    for (const std::string& feed : step->second) {
        const PartResult* f = part_of(result, feed);
        if (!f || f->verdict == Verdict::correct || std::find(found.begin(), found.end(), f) != found.end()) continue;
        found.push_back(f);
        wrong_ancestors(exercise, result, feed, found);
    }
}

// Follow-through credit only where the program's values move with its inputs: a step whose own
// value, or a wrong earlier value it comes from (directly or through earlier steps), is printed unchanged (and wrong) on a confirming
// case earns nothing (hard-coded or constant early values).
void refuse_constant_follow_through(const Exercise& exercise, ExerciseResult& result, const std::vector<ExerciseResult>& others) {
    bool changed = false;
    for (PartResult& p : result.parts) {
        if (!p.follow_through || *p.follow_through == 0) continue;
        std::vector<const PartResult*> looked{&p};
        wrong_ancestors(exercise, result, p.name, looked);
        const bool moves = !others.empty() && std::none_of(others.begin(), others.end(), [&](const ExerciseResult& o) {
            return std::any_of(looked.begin(), looked.end(), [&](const PartResult* l) { return constant_there(*l, o); });
        });
        if (moves) continue;
        p.follow_through = 0;
        if (p.verdict != Verdict::correct) p.score = 0;
        changed = true;
    }
    if (!changed) return;
    result.score = 0;
    for (const PartResult& p : result.parts) result.score += p.score;
}

// Takes the refuted explanations' names off the parts.
void unname(ExerciseResult& result, const std::vector<Explanation>& refuted) {
    auto is_refuted = [&](const std::vector<std::string>& ids) {
        return std::any_of(refuted.begin(), refuted.end(), [&](const Explanation& x) { return x.keys == ids; });
    };
    for (PartResult& p : result.parts) {
        if (p.diagnosis && is_refuted({p.diagnosis->id})) p.diagnosis.reset();
        if (p.diagnoses.size() == 2 && is_refuted({p.diagnoses[0].id, p.diagnoses[1].id})) p.diagnoses.clear();
    }
}

// True when change `rival` gives catalogue mistake `x`'s numbers on x's parts on the book's inputs
// and variants 1 to same_slip_variants (where the change has finite numbers): the mistake's own
// slip. Made once a pair, parts and exercise (no program runs: the reference and the tape alone).
bool same_slip(const Exercise& exercise, const Explanation& x, const Explanation& rival) {
    static std::mutex mutex;
    static std::map<std::string, bool> known;
    const std::string key = exercise.file.string() + "\n" + exercise.id + "\n" + exercise.variants.dump() + "\n" +
                            case_key(exercise.inputs) + "\n" + x.keys.front() + "\n" + rival.keys.front() + "\n" +
                            fmt::format("{}", fmt::join(x.parts, ","));
    {
        const std::lock_guard lock(mutex);
        if (auto it = known.find(key); it != known.end()) return it->second;
    }
    bool same = true;
    for (int s = 0; same && s <= (exercise.variants.empty() ? 0 : same_slip_variants); ++s) {
        try {
            const InputList inputs = s ? variant_inputs(exercise, std::uint64_t(s)) : exercise.inputs;
            const ExpectedCase c = expected_answers_and_mistakes(exercise, inputs);
            const std::vector<Values> made = explanation_answers(exercise, inputs, c, x);
            const std::optional<Values> changed = exercise.expected->model_change(exercise, inputs, rival.keys.front());
            if (!changed) continue;  // no finite numbers there: a program printing nan cannot tell either way
            same = std::any_of(made.begin(), made.end(), [&](const Values& v) {
                       return !graded_apart(exercise, v, *changed, x.parts);
                   });
        } catch (const std::exception&) {
            // no answers on these inputs: no evidence either way
        }
    }
    const std::lock_guard lock(mutex);
    return known.emplace(key, same).first->second;
}

// The slip's id and words as said in a tie: a catalogue mistake by what it changes, a change by its words.
std::pair<std::string, Text> slip_words(const std::string& id, const std::vector<Rival>& rivals) {
    for (const Rival& r : rivals)
        if (r.explanation.keys.front() == id) return {id, r.words};
    const MistakeEntry* entry = find_mistake(id);
    return {id, entry ? entry->changes : mistake_message(id)};
}

// Says `slips` (one, or a tie) on `parts` where nothing else is said.
void say_slips(ExerciseResult& result, const std::vector<std::string>& slips, const std::vector<std::string>& parts) {
    std::vector<std::pair<std::string, Text>> words;
    for (const std::string& id : slips) words.push_back(slip_words(id, result.rivals));
    const Diagnosis said = slips_diagnosis(words);
    for (PartResult& p : result.parts)
        if (std::find(parts.begin(), parts.end(), p.name) != parts.end() && !p.follow_through) p.diagnosis = said;
}

// The catalogue mistake (`named[x]`) against its rivals (`all` from `first`), once `held` is known:
// a rival that holds where the mistake does not is said instead; rivals holding beside it that are
// not its slip make a tie with it; too many of either, and nothing is said.
void settle_rivals(const Exercise& exercise, ExerciseResult& result, const std::vector<Explanation>& all,
                   const std::vector<bool>& held, std::size_t first) {
    if (result.rivals.empty()) return;
    const std::string& of = result.rivals.front().of;
    const std::size_t at = rival_of(all, first, result.rivals);
    if (at == first) return;
    const Explanation* x = &all[at];
    const bool x_held = held[at];
    std::vector<std::string> slips = x_held ? std::vector{of} : std::vector<std::string>{};
    std::vector<std::string> parts = x->parts;
    for (std::size_t i = first; i < all.size(); ++i)
        if (held[i] && !(x_held && same_slip(exercise, *x, all[i]))) {
            slips.push_back(all[i].keys.front());
            if (!x_held) parts = all[i].parts;
        }
    if (slips.empty() || (x_held && slips.size() == 1)) return;  // the mistake alone, or nothing held
    if (slips.size() > max_model_tie + (x_held ? 1 : 0)) {
        for (PartResult& p : result.parts)
            if (p.diagnosis && p.diagnosis->id == of) p.diagnosis.reset();
        return;  // too many readings of the same numbers to say any
    }
    say_slips(result, slips, parts);
}

}  // namespace

void confirm_diagnoses(const Exercise& exercise, ExerciseResult& result, const std::string& student,
                       const std::function<ExerciseResult(const InputList&)>& rerun) {
    const std::vector<Explanation> named = named_explanations(result);
    const std::vector<Explanation> candidates = std::move(result.candidates);
    result.candidates.clear();  // shown only once confirmed
    const std::vector<ValueWord> words = value_words(result);
    const bool credit = std::any_of(result.parts.begin(), result.parts.end(),
                                    [](const PartResult& p) { return p.follow_through && *p.follow_through > 0; });
    if (named.empty() && candidates.empty() && words.empty() && !credit) return;
    const auto carried = exercise.expected->carried_variants();
    std::vector<Explanation> all = named;
    all.insert(all.end(), candidates.begin(), candidates.end());
    const std::size_t first_rival = all.size();
    for (const Rival& r : result.rivals) all.push_back(r.explanation);
    std::vector<bool> held(all.size(), true);
    std::vector<bool> said(words.size(), true);
    std::vector<ExerciseResult> others;
    if (!exercise.variants.empty() && !(carried && carried->empty()))
        for (const ConfirmingCase& c : confirming_cases(exercise, student, all, first_rival, rival_of(all, first_rival, result.rivals))) {
            others.push_back(rerun(c.inputs));
            const ExerciseResult& other = others.back();
            for (std::size_t i = 0; i < all.size(); ++i) held[i] = held[i] && holds_on(exercise, all[i], i, c, other);
            for (std::size_t i = 0; i < words.size(); ++i) said[i] = said[i] && word_holds(words[i], c, other);
        }
    // a word no other input confirmed is not said (an exercise without variants cannot confirm one)
    std::vector<ValueWord> unconfirmed;
    for (std::size_t i = 0; i < words.size(); ++i)
        if (!said[i] || others.empty()) unconfirmed.push_back(words[i]);
    unsay(result, unconfirmed);
    refuse_constant_follow_through(exercise, result, others);
    if (others.empty()) return;  // the explanations stay as diagnosed: nothing to confirm them on
    std::vector<Explanation> refuted;
    for (std::size_t i = 0; i < named.size(); ++i)
        if (!held[i]) refuted.push_back(named[i]);
    unname(result, refuted);
    // of the candidates, the one the other inputs keep, and only when it is the only one
    std::vector<const Explanation*> kept;
    for (std::size_t i = named.size(); i < first_rival; ++i)
        if (held[i]) kept.push_back(&all[i]);
    if (kept.size() == 1) name_explanation(result.parts, *kept.front());
    settle_rivals(exercise, result, all, held, first_rival);
}

}  // namespace blockcheck
