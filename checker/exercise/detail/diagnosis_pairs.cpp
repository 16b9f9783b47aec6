// Two mistakes made at once (diagnosis.hpp: pair_explanations). Asked only when no single mistake
// explains a program, and only of pairs that can: one of the two explains some wrong part on its
// own, neither changes a right part, and together they change every wrong one. A program with two
// slips costs a few reference runs, never one per pair of the catalogue.
#include "checker/exercise/diagnosis.hpp"

#include <algorithm>
#include <set>

namespace blockcheck {
namespace {

// At most this many pairs are made for one program (each a run of the reference).
constexpr std::size_t most_tried = 24;

// True for a mistake a switch of the reference or the block makes (so two can be made at once).
bool made_by_switch(const std::string& key) {
    const MistakeEntry* entry = find_mistake(key);
    return entry && (entry->made_by == "reference" || entry->made_by == "block");
}

// A switch mistake that may be half of a pair: it changes no part the program got right, and some
// wrong part (`covers`); `fits`: its value of some wrong part is the one printed there.
struct PairHalf {
    std::string key;
    std::set<std::string> covers;
    bool fits = false;
};

std::vector<PairHalf> pair_halves(const std::vector<GivenPart>& parts, const std::map<std::string, Values>& mistakes) {
    std::vector<PairHalf> halves;
    for (const auto& [key, values] : mistakes) {
        if (is_mistake_pair(key) || !made_by_switch(key)) continue;
        PairHalf half{key, {}, false};
        bool keeps_right = true;
        for (const GivenPart& p : parts) {
            auto made = values.find(p.spec->name);
            if (!p.given || !p.expected || made == values.end() || !changes_value(*p.spec, made->second, *p.expected)) continue;
            keeps_right = keeps_right && p.result->verdict != Verdict::correct;
            if (p.result->verdict != Verdict::wrong) continue;
            half.covers.insert(p.spec->name);
            half.fits = half.fits || fits_value(*p.spec, p.given->value, made->second);
        }
        if (keeps_right && !half.covers.empty()) halves.push_back(std::move(half));
    }
    // the ones that fit a part first: a pair has at least one
    std::stable_partition(halves.begin(), halves.end(), [](const PairHalf& h) { return h.fits; });
    return halves;
}

// The pairs worth a reference run: one half at least fits a wrong part, and together they change
// every wrong part; at most most_tried, in the halves' order.
std::vector<std::pair<std::string, std::string>> pairs_to_try(const std::vector<GivenPart>& parts,
                                                               const std::vector<PairHalf>& halves) {
    std::set<std::string> wrong;
    for (const GivenPart& p : parts)
        if (p.given && p.expected && p.result->verdict == Verdict::wrong) wrong.insert(p.spec->name);
    std::vector<std::pair<std::string, std::string>> tried;
    for (std::size_t i = 0; i < halves.size() && halves[i].fits; ++i)
        for (std::size_t j = i + 1; j < halves.size() && tried.size() < most_tried; ++j) {
            std::set<std::string> both = halves[i].covers;
            both.insert(halves[j].covers.begin(), halves[j].covers.end());
            if (both == wrong) tried.emplace_back(halves[i].key, halves[j].key);
        }
    return tried;
}

// The parts whose answer `values` changes, among those printed.
std::vector<std::string> changed_parts(const std::vector<GivenPart>& parts, const Values& values) {
    std::vector<std::string> names;
    for (const GivenPart& p : parts) {
        auto made = values.find(p.spec->name);
        if (p.given && p.expected && made != values.end() && changes_value(*p.spec, made->second, *p.expected))
            names.push_back(p.spec->name);
    }
    return names;
}

}  // namespace

std::vector<Explanation> pair_explanations(const std::vector<GivenPart>& parts, const std::map<std::string, Values>& mistakes,
                                           const PairAnswers& pairs) {
    const auto tried = pairs_to_try(parts, pair_halves(parts, mistakes));
    if (tried.empty()) return {};
    std::map<std::string, Values> made;
    try {
        made = pairs(tried);
    } catch (const std::exception&) {
        return {};  // no pair's answers for these inputs
    }
    std::vector<Explanation> found;
    for (const std::string& key : explaining_mistakes(parts, made))
        for (const auto& [a, b] : tried)
            if (mistake_pair_key(a, b) == key) found.push_back({{a, b}, changed_parts(parts, made.at(key))});
    return found;
}

std::vector<Explanation> diagnose_pairs(std::vector<GivenPart>& parts, const std::map<std::string, Values>& mistakes,
                                        const PairAnswers& pairs) {
    // a wrong part with nothing said of it, or only a sign or a factor read off its value
    const bool unexplained = std::any_of(parts.begin(), parts.end(), [](const GivenPart& p) {
        const auto said = named_diagnoses(*p.result);
        return p.given && p.result->verdict == Verdict::wrong && !p.result->follow_through &&
               (said.empty() || (said.size() == 1 && derived_from_expected(said.front().id)));
    });
    if (!unexplained) return {};
    std::vector<Explanation> found = pair_explanations(parts, mistakes, pairs);
    if (found.size() != 1) return found;
    for (GivenPart& p : parts) {
        // a sign or a factor read off the value yields to the two mistakes that made it
        const auto& its = found.front().parts;
        if (p.result->diagnosis && derived_from_expected(p.result->diagnosis->id) &&
            std::find(its.begin(), its.end(), p.spec->name) != its.end())
            p.result->diagnosis.reset();
        name_explanation_on(*p.result, found.front());
    }
    return {};
}

}  // namespace blockcheck
