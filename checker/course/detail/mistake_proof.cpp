// validate's proof that the tutor names what it should and nothing else (validate.hpp:
// mistake_proof): programs the reference makes with one mistake or two, judged with no compile,
// and docs/mistake-coverage.md with what was named.
#include "checker/course/mistake_programs.hpp"
#include "checker/course/validate.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/variants.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <mutex>

namespace blockcheck {
namespace {

// The student the proof's confirming variants are seeded from.
constexpr const char* proof_student = "validate/proof";

std::string case_name(int seed) { return seed ? fmt::format("variant {}", seed) : "the book's inputs"; }

InputList case_inputs(const Exercise& e, int seed) { return seed ? variant_inputs(e, std::uint64_t(seed)) : e.inputs; }

// The ids named on a result's parts, each once, in the parts' order.
std::vector<std::string> ids_named(const ExerciseResult& r) {
    std::vector<std::string> ids;
    for (const PartResult& p : r.parts)
        for (const Diagnosis& d : named_diagnoses(p))
            if (std::find(ids.begin(), ids.end(), d.id) == ids.end()) ids.push_back(d.id);
    return ids;
}

MistakeProof::Program proof_program(const Exercise& e, std::vector<std::string> made, int seed) {
    const ExerciseResult r =
        judge_made_program(e, case_inputs(e, seed), [&](const InputList& in) { return made_program_answers(e, in, made); }, proof_student);
    return {std::move(made), case_name(seed), ids_named(r), false};
}

// The first case (book, variants 1-seeds) where the pair's answers differ from each alone's:
// nullopt when one of them hides the other everywhere (the pair is then that one).
std::optional<int> pair_case(const Exercise& e, const std::string& a, const std::string& b, int seeds) {
    for (int s = 0; s <= (e.variants.empty() ? 0 : seeds); ++s) {
        try {
            const InputList inputs = case_inputs(e, s);
            const ExpectedCase c = expected_answers_and_mistakes(e, inputs);
            const auto both = e.expected->pair_mistakes(e, inputs, {{a, b}});
            if (both.empty() || !c.mistakes.count(a) || !c.mistakes.count(b)) continue;
            const Values& made = both.begin()->second;
            if (!same_answers(made, c.mistakes.at(a)) && !same_answers(made, c.mistakes.at(b))) return s;
        } catch (const std::exception&) {
        }
    }
    return std::nullopt;
}

MistakeProof prove(const Exercise& e, int seeds) {
    MistakeProof proof;
    const MistakeCoverage coverage = mistake_coverage(e, seeds);
    std::vector<std::string> shown;
    for (const MistakeCoverage::Row& row : coverage.rows) {
        if (!row.book && row.variants.empty()) continue;
        shown.push_back(row.id);
        MistakeProof::Program p = proof_program(e, {row.id}, row.book ? 0 : row.variants.front());
        p.twin = std::any_of(coverage.identical.begin(), coverage.identical.end(),
                             [&](const auto& pair) { return pair.first == row.id || pair.second == row.id; });
        proof.singles.push_back(std::move(p));
    }
    std::vector<std::pair<std::string, std::string>> all;
    for (std::size_t i = 0; i < shown.size(); ++i)
        for (std::size_t j = i + 1; j < shown.size(); ++j) all.emplace_back(shown[i], shown[j]);
    const std::size_t step = std::max<std::size_t>(1, all.size() / proof_pairs);
    for (std::size_t k = 0; k < all.size() && proof.pairs.size() < std::size_t(proof_pairs); k += step)
        if (auto seed = pair_case(e, all[k].first, all[k].second, seeds))
            proof.pairs.push_back(proof_program(e, {all[k].first, all[k].second}, *seed));
    return proof;
}

struct Tally {
    int made = 0, right = 0, partly = 0, wrong = 0, none = 0, twins = 0;
    void add(const MistakeProof::Program& p) {
        ++made;
        switch (proof_outcome(p)) {
            case ProofOutcome::right: ++right; break;
            case ProofOutcome::partly: ++partly; break;
            case ProofOutcome::wrong: ++wrong; break;
            case ProofOutcome::none: ++none, twins += p.twin; break;
        }
    }
    int named() const { return right + partly + wrong; }
};

std::string percent(int part, int whole) { return whole ? fmt::format("{:.0f}%", 100.0 * part / whole) : "-"; }

std::pair<Tally, Tally> tallies(const std::vector<const Exercise*>& exercises, int seeds) {
    Tally singles, pairs;
    for (const Exercise* e : exercises) {
        const MistakeProof proof = mistake_proof(*e, seeds);
        for (const auto& p : proof.singles) singles.add(p);
        for (const auto& p : proof.pairs) pairs.add(p);
    }
    return {singles, pairs};
}

std::string outcome_text(const MistakeProof::Program& p) {
    std::string named;
    for (const std::string& id : p.named) named += (named.empty() ? "" : ", ") + ("`" + id + "`");
    switch (proof_outcome(p)) {
        case ProofOutcome::right: return "named";
        case ProofOutcome::partly: return "one named: " + named;
        case ProofOutcome::wrong: return "told " + named;
        case ProofOutcome::none: return p.twin ? "none (a twin)" : "none";
    }
    return "";
}

}  // namespace

ProofOutcome proof_outcome(const MistakeProof::Program& p) {
    std::vector<std::string> named = p.named;
    std::erase(named, "float_precision");  // a note on the digits, not a mistake's name
    if (named.empty()) return ProofOutcome::none;
    for (const std::string& id : named)
        if (std::find(p.made.begin(), p.made.end(), id) == p.made.end()) return ProofOutcome::wrong;
    return named.size() == p.made.size() ? ProofOutcome::right : ProofOutcome::partly;
}

MistakeProof mistake_proof(const Exercise& e, int seeds) {
    static std::mutex mutex;
    static std::map<std::pair<std::string, int>, MistakeProof> known;  // per exercise (as mistake_coverage) and seeds
    std::string what = e.file.string() + "\n" + e.id + "\n" + e.variants.dump() + "\n";
    for (const std::string& id : e.mistakes) what += id + ",";
    const std::pair<std::string, int> key{what, seeds};
    {
        const std::lock_guard lock(mutex);
        if (auto it = known.find(key); it != known.end()) return it->second;
    }
    MistakeProof proof = prove(e, seeds);
    const std::lock_guard lock(mutex);
    return known.emplace(key, std::move(proof)).first->second;
}

Text proof_summary(const std::vector<const Exercise*>& exercises, int seeds) {
    const auto [s, p] = tallies(exercises, seeds);
    return {fmt::format("mistakes on programs the reference makes: {} single: {} named right (coverage {}), {} named wrong "
                        "(precision {}), {} abstentions ({} twins no case tells apart); {} pairs: {} both named, {} one "
                        "named, {} named wrong, {} abstentions",
                        s.made, s.right, percent(s.right, s.made), s.wrong, percent(s.right, s.named()), s.none, s.twins,
                        p.made, p.right, p.partly, p.wrong, p.none),
            fmt::format("参考解答制造的错误程序：单个错误 {} 个：{} 个诊断正确（覆盖率 {}），{} 个诊断错误（准确率 {}），"
                        "{} 个未诊断（其中 {} 个与另一错误在任何输入上都无法区分）；两个错误同时出现 {} 组：{} 组两个都诊断出，"
                        "{} 组只诊断出一个，{} 组诊断错误，{} 组未诊断",
                        s.made, s.right, percent(s.right, s.made), s.wrong, percent(s.right, s.named()), s.none, s.twins,
                        p.made, p.right, p.partly, p.wrong, p.none)};
}

void check_mistake_proof(const Exercise& e, const std::string& file, int seeds, std::vector<Problem>& out) {
    const MistakeProof proof = mistake_proof(e, seeds);
    for (const MistakeProof::Program& p : proof.singles) {
        const ProofOutcome outcome = proof_outcome(p);
        if (outcome == ProofOutcome::wrong && !p.twin)
            out.push_back({file, "mistakes." + p.made.front(),
                           {fmt::format("its own answers on {} are told another mistake ({})", p.where, fmt::join(p.named, ", ")),
                            fmt::format("它在{}上的答案被诊断为另一个错误（{}）", p.where, fmt::join(p.named, ", "))}});
        else if (outcome == ProofOutcome::none && !p.twin)
            out.push_back({file, "mistakes." + p.made.front(),
                           {fmt::format("its own answers on {} are not named", p.where),
                            fmt::format("它在{}上的答案没有被诊断出来", p.where)}});
    }
    for (const MistakeProof::Program& p : proof.pairs)
        if (proof_outcome(p) == ProofOutcome::wrong)
            out.push_back({file, fmt::format("mistakes.{}+{}", p.made[0], p.made[1]),
                           {fmt::format("the two made at once on {} are told a mistake not made ({})", p.where, fmt::join(p.named, ", ")),
                            fmt::format("同时犯这两个错误的答案在{}上被诊断为没有犯的错误（{}）", p.where, fmt::join(p.named, ", "))}});
}

std::string coverage_doc(const std::vector<const Exercise*>& exercises, int seeds) {
    const auto [s, p] = tallies(exercises, seeds);
    std::string doc = fmt::format(
        "# Where each mistake shows, and what the tutor names\n\n"
        "Written by `blockcheck validate --coverage` (a test keeps it true). A mistake belongs to the mechanism "
        "it switches: every exercise whose reference runs that mechanism makes it, with no declaration. For "
        "every exercise, each mistake its reference makes: whether it changes an answer on the book's inputs, "
        "and on how many of the first {} variants (a mistake made but changing nothing there is listed with "
        "0); then what the tutor names on a program printing that mistake's answers, on the first case it shows "
        "on, its named mistakes confirmed on variants where it prints the mistake's answers again. Pairs no case "
        "tells apart are listed after the table; such a program is named neither. Up to {} pairs of mistakes an "
        "exercise are made at once, where neither alone gives the same answers: both should be named, or none, "
        "never one the program did not make. Mistakes an exercise excludes are listed with its reason. A "
        "mistake read off the expected value (a sign, a factor, a 32-bit wrap) shows wherever its part is not "
        "zero and is not listed.\n\n"
        "| programs | made | named right | coverage | named wrong | precision | one of two named | abstentions |\n"
        "|---|---|---|---|---|---|---|---|\n"
        "| one mistake | {} | {} | {} | {} | {} | - | {} ({} twins) |\n"
        "| two at once | {} | {} | {} | {} | {} | {} | {} |\n",
        seeds, proof_pairs, s.made, s.right, percent(s.right, s.made), s.wrong, percent(s.right, s.named()), s.none,
        s.twins, p.made, p.right, percent(p.right, p.made), p.wrong, percent(p.right + p.partly, p.named()), p.partly, p.none);
    for (const Exercise* e : exercises) {
        const MistakeCoverage coverage = mistake_coverage(*e, seeds);
        const MistakeProof proof = mistake_proof(*e, seeds);
        if (coverage.rows.empty() && e->mistakes_excluded.empty()) continue;
        doc += fmt::format("\n## {}\n\n| mistake | book | variants 1-{} | named |\n|---|---|---|---|\n", e->id, seeds);
        for (const MistakeCoverage::Row& row : coverage.rows) {
            auto judged = std::find_if(proof.singles.begin(), proof.singles.end(),
                                       [&](const MistakeProof::Program& p) { return p.made.front() == row.id; });
            doc += fmt::format("| `{}` | {} | {}/{} | {} |\n", row.id, row.book ? "yes" : "no", row.variants.size(),
                               e->variants.empty() ? 0 : seeds, judged == proof.singles.end() ? "-" : outcome_text(*judged));
        }
        if (!coverage.identical.empty()) {
            doc += "\nNo case tells apart:";
            for (const auto& [a, b] : coverage.identical) doc += fmt::format(" `{}` and `{}`;", a, b);
            doc.back() = '.';
            doc += "\n";
        }
        if (!proof.pairs.empty()) {
            doc += "\nTwo at once:";
            for (const MistakeProof::Program& pair : proof.pairs)
                doc += fmt::format(" `{}` + `{}` ({}): {};", pair.made[0], pair.made[1], pair.where, outcome_text(pair));
            doc.back() = '.';
            doc += "\n";
        }
        for (const auto& [id, reason] : e->mistakes_excluded) doc += fmt::format("\nExcluded `{}`: {}\n", id, reason.en);
    }
    return doc + model_proof_doc(exercises, seeds);
}

}  // namespace blockcheck
