// The error model's search (diagnosis.hpp: explain_by_error_model): where the catalogue explains
// nothing, the single changes of the reference's recorded computation (ExpectedAnswers::
// model_changes) that reproduce the whole program are named, one, or a tie of a few; where one
// catalogue mistake is named, those changes are its rivals. The confirmation on other inputs
// (confirm_diagnoses) keeps a name only where the program's numbers there are that change's again,
// and tells a catalogue mistake from its rivals.
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/exercise_set.hpp"

#include <algorithm>
#include <atomic>
#include <optional>

namespace blockcheck {
namespace {

std::atomic<bool> search_on{true};

// The parts printed wrong that nothing explains yet (no diagnosis, no follow-through).
std::vector<std::string> unexplained_wrong(const std::vector<GivenPart>& parts) {
    std::vector<std::string> wrong;
    for (const GivenPart& p : parts)
        if (p.given && p.expected && p.result->verdict == Verdict::wrong && !p.result->follow_through) wrong.push_back(p.spec->name);
    return wrong;
}

// True when some part carries a diagnosis a search would contradict: a mistake made (a catalogue
// entry, a pair, a step's slip) rather than one read off the value (a sign, a factor, float).
bool explained_by_catalogue(const std::vector<GivenPart>& parts) {
    return std::any_of(parts.begin(), parts.end(), [](const GivenPart& p) {
        for (const Diagnosis& d : named_diagnoses(*p.result))
            if (!derived_from_expected(d.id)) return true;
        return false;
    });
}

// Explanations that give the same answers here are one group: a tie the inputs cannot split.
std::vector<std::vector<const ModelChange*>> alike_groups(const std::vector<const ModelChange*>& fitting) {
    std::vector<std::vector<const ModelChange*>> groups;
    for (const ModelChange* c : fitting) {
        auto same = std::find_if(groups.begin(), groups.end(),
                                 [&](const auto& g) { return same_answers(g.front()->answers, c->answers); });
        if (same == groups.end()) groups.push_back({c});
        else same->push_back(c);
    }
    return groups;
}

// The one catalogue mistake named on the parts (a single id, not a pair, not read off the value);
// nullopt when none or more than one.
std::optional<std::string> sole_catalogue_name(const std::vector<GivenPart>& parts) {
    std::optional<std::string> id;
    for (const GivenPart& p : parts) {
        if (p.result->diagnoses.size() == 2) return std::nullopt;
        if (!p.result->diagnosis || derived_from_expected(p.result->diagnosis->id)) continue;
        if (id && *id != p.result->diagnosis->id) return std::nullopt;
        id = p.result->diagnosis->id;
    }
    return id;
}

// The fitting changes as rivals of catalogue mistake `of`, each on the parts it changes.
std::vector<Rival> rivals_of(const std::string& of, const std::vector<const ModelChange*>& fitting,
                             const std::vector<GivenPart>& parts) {
    std::vector<Rival> rivals;
    for (const ModelChange* c : fitting) {
        Rival r{of, {{c->id}, {}}, c->words};
        for (const GivenPart& p : parts) {
            auto changed = c->answers.find(p.spec->name);
            if (p.given && p.expected && changed != c->answers.end() && changes_value(*p.spec, changed->second, *p.expected))
                r.explanation.parts.push_back(p.spec->name);
        }
        rivals.push_back(std::move(r));
    }
    return rivals;
}

// True when changes alike are one reading of one slip: made at one operation, or at it and an
// operand of it (the root left out, or its square added; the 2 of 2 C F taken as 1, or that factor
// left out), each linked to the others so. Changes far apart are different slips giving the same
// numbers (3 / 2 in integers, or a count with one matrix too few): a tie, never one picked.
bool one_reading(const std::vector<const ModelChange*>& alike) {
    auto linked = [](const ModelChange& x, const ModelChange& y) {
        if (x.place.empty() || y.place.empty()) return false;
        return x.place[0] == y.place[0] || std::find(y.place.begin() + 1, y.place.end(), x.place[0]) != y.place.end() ||
               std::find(x.place.begin() + 1, x.place.end(), y.place[0]) != x.place.end();
    };
    std::vector<char> reached(alike.size(), 0);
    reached[0] = 1;
    for (bool grew = true; grew;) {
        grew = false;
        for (std::size_t i = 0; i < alike.size(); ++i)
            for (std::size_t j = 0; !reached[i] && j < alike.size(); ++j)
                if (reached[j] && linked(*alike[i], *alike[j])) reached[i] = 1, grew = true;
    }
    return std::all_of(reached.begin(), reached.end(), [](char r) { return r != 0; });
}

// True when catalogue mistake `values` changes a part the program printed right that feeds a part
// `change` changes (Exercise::steps, directly or through earlier steps): its slip is in a step the
// program got right, not in the later one.
bool slip_in_right_feed(const Exercise& exercise, const Values& values, const ModelChange& change,
                        const std::vector<GivenPart>& parts) {
    auto part = [&](const std::string& name) {
        return std::find_if(parts.begin(), parts.end(), [&](const GivenPart& p) { return p.spec->name == name; });
    };
    std::vector<std::string> feeds;
    for (const GivenPart& p : parts) {
        auto made = change.answers.find(p.spec->name);
        if (p.given && p.expected && made != change.answers.end() && changes_value(*p.spec, made->second, *p.expected))
            feeds.push_back(p.spec->name);
    }
    for (std::size_t i = 0; i < feeds.size(); ++i) {  // every step the changed parts come from
        auto step = std::find_if(exercise.steps.begin(), exercise.steps.end(), [&](const auto& s) { return s.first == feeds[i]; });
        if (step == exercise.steps.end()) continue;
        for (const std::string& feed : step->second) {
            if (std::find(feeds.begin(), feeds.end(), feed) != feeds.end()) continue;
            feeds.push_back(feed);
            auto p = part(feed);
            auto its = values.find(feed);
            if (p != parts.end() && p->given && p->expected && p->result->verdict == Verdict::correct && its != values.end() &&
                changes_value(*p->spec, its->second, *p->expected))
                return true;
        }
    }
    return false;
}

// The one catalogue mistake (a single key) that gives the changes' numbers on every part they
// change (where it also changes a part the program got right, it is said on these parts alone),
// and whose slip is not in a step the program got right: the same slip in the catalogue's words;
// nullopt when none, or more than one, does.
std::optional<std::string> catalogue_equal(const Exercise& exercise, const ModelChange& change, const std::vector<GivenPart>& parts,
                                           const std::map<std::string, Values>& mistakes) {
    std::optional<std::string> found;
    for (const auto& [key, values] : mistakes) {
        if (is_mistake_pair(key) || slip_in_right_feed(exercise, values, change, parts)) continue;
        bool equal = true, changes = false;
        for (const GivenPart& p : parts) {
            auto made = change.answers.find(p.spec->name);
            if (!p.given || !p.expected || made == change.answers.end() || !changes_value(*p.spec, made->second, *p.expected))
                continue;
            changes = true;
            auto its = values.find(p.spec->name);
            equal = equal && its != values.end() && !changes_value(*p.spec, its->second, made->second);
        }
        if (!equal || !changes) continue;
        if (found && mistake_id(*found) != mistake_id(key)) return std::nullopt;
        found = key;
    }
    return found;
}

}  // namespace

void set_error_model_search(bool on) { search_on = on; }

Diagnosis slips_diagnosis(const std::vector<std::pair<std::string, Text>>& slips) {
    if (slips.size() == 1)
        return {slips.front().first, {"your numbers are what you get when, " + slips.front().second.en,
                                      "你的数值正是这样算出来的：" + slips.front().second.zh}};
    Diagnosis d{"", {"your numbers fit each of these slips, and the inputs tried do not tell them apart: ",
                     "你的数值与以下几种错误都相符，试过的输入无法区分它们："}};
    for (std::size_t i = 0; i < slips.size(); ++i) {
        d.id += (i ? "|" : "") + slips[i].first;
        d.message.en += (i ? "; or " : "") + slips[i].second.en;
        d.message.zh += (i ? "；或者" : "") + slips[i].second.zh;
    }
    return d;
}

std::vector<Rival> explain_by_error_model(std::vector<GivenPart>& parts, const Exercise& exercise, const InputList& inputs,
                                          const std::map<std::string, Values>& mistakes) {
    const std::vector<std::string> wrong = unexplained_wrong(parts);
    if (wrong.empty() || exercise.variants.empty() || !search_on) return {};
    // a catalogue mistake named: the changes giving its numbers here are its rivals, else nothing
    std::optional<std::string> catalogue;
    if (explained_by_catalogue(parts) && !(catalogue = sole_catalogue_name(parts))) return {};
    std::vector<ModelChange> changes;
    try {
        changes = exercise.expected->model_changes(exercise, inputs, wrong, model_changes_per_wrong_part * wrong.size());
    } catch (const std::exception&) {
        return {};  // no tape for these inputs: nothing to say
    }
    std::map<std::string, Values> made;
    for (const ModelChange& c : changes) made.emplace(c.id, c.answers);
    std::vector<const ModelChange*> fitting;
    for (const std::string& id : explaining_mistakes(parts, made))
        fitting.push_back(&*std::find_if(changes.begin(), changes.end(), [&](const ModelChange& c) { return c.id == id; }));
    if (fitting.empty()) return {};
    if (catalogue) return rivals_of(*catalogue, fitting, parts);
    std::vector<std::vector<const ModelChange*>> groups = alike_groups(fitting);
    std::vector<const ModelChange*> named;
    for (const auto& g : groups) named.insert(named.end(), g.begin(), g.end());
    std::sort(named.begin(), named.end(), [](auto* a, auto* b) { return a->id < b->id; });
    // changes alike that a catalogue entry equals on every part they change: the entry is said,
    // in its words, and the changes are its rivals (the confirmation keeps the entry alone only
    // where no input tells them apart)
    if (named.size() > max_model_tie) return {};  // too many readings of the same numbers to say any
    const std::optional<std::string> equal =
        groups.size() == 1 && one_reading(named) ? catalogue_equal(exercise, *named.front(), parts, mistakes) : std::nullopt;
    std::vector<std::pair<std::string, Text>> slips;
    for (const ModelChange* c : named) slips.emplace_back(c->id, c->words);
    const Diagnosis said = equal ? Diagnosis{mistake_id(*equal), mistake_message(*equal)} : slips_diagnosis(slips);
    for (GivenPart& p : parts) {
        auto changed = named.front()->answers.find(p.spec->name);
        if (!p.given || !p.expected || changed == named.front()->answers.end() ||
            !changes_value(*p.spec, changed->second, *p.expected))
            continue;
        p.result->diagnoses.clear();
        p.result->diagnosis = said;  // replaces a sign or a factor read off the value
    }
    return equal ? rivals_of(mistake_id(*equal), named, parts) : std::vector<Rival>{};
}

}  // namespace blockcheck
