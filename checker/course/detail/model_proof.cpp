// validate's proof of the error model (validate.hpp: model_proof): every single change of the
// recorded computation on the book's inputs, judged as the printed answers of a program making it,
// with no compile; and its section of docs/mistake-coverage.md.
#include "checker/course/mistake_programs.hpp"
#include "checker/course/validate.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/variants.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <optional>

namespace blockcheck {
namespace {

// The student the proof's confirming variants are seeded from.
constexpr const char* model_proof_student = "validate/model-proof";

InputList model_case_inputs(const Exercise& e, int seed) { return seed ? variant_inputs(e, std::uint64_t(seed)) : e.inputs; }

// "tape:swapped:0123" -> "swapped".
std::string change_kind(const std::string& id) {
    const auto first = id.find(':'), last = id.rfind(':');
    return id.substr(first + 1, last - first - 1);
}

// True when no answer of `a` (of `parts`, when given) would pass as a different one of `b`'s at its
// declared precision.
bool same_numbers(const Exercise& e, const Values& a, const Values& b, const std::vector<std::string>& parts = {}) {
    for (const AnswerSpec& spec : e.answers) {
        if (!parts.empty() && std::find(parts.begin(), parts.end(), spec.name) == parts.end()) continue;
        auto x = a.find(spec.name), y = b.find(spec.name);
        if (x != a.end() && y != b.end() && mistake_changes(spec, x->second, y->second)) return false;
    }
    return true;
}

// The answers named id `id` gives on `inputs`: a change of the tape or a catalogue entry; nullopt
// where it is not made.
std::optional<Values> named_answers(const Exercise& e, const InputList& inputs, const std::string& id) {
    if (id.starts_with("tape:")) return e.expected->model_change(e, inputs, id);
    for (const auto& [key, values] : expected_answers_and_mistakes(e, inputs).mistakes)
        if (!is_mistake_pair(key) && mistake_id(key) == id) return values;
    return std::nullopt;
}

// True when `named` gives the change's numbers on the parts it is named on, on the book's inputs
// and the first `seeds` variants.
bool equivalent(const Exercise& e, const std::string& named, const std::string& change, const std::vector<std::string>& parts,
                int seeds) {
    for (int s = 0; s <= (e.variants.empty() ? 0 : seeds); ++s) {
        try {
            const InputList inputs = model_case_inputs(e, s);
            const std::optional<Values> c = e.expected->model_change(e, inputs, change), x = named_answers(e, inputs, named);
            if (!c && !x) continue;
            if (!c || !x || !same_numbers(e, *x, *c, parts)) return false;
        } catch (const std::exception&) {
            // no answers on these inputs: no evidence either way
        }
    }
    return true;
}

// One thing said of a program: the ids of a name (a tie's each) and the parts it is said on.
struct Said {
    std::vector<std::string> ids;
    std::vector<std::string> parts;
};

// What a result says was made (not a sign or a factor read off the value, not float's note).
std::vector<Said> slips_said(const ExerciseResult& r) {
    std::vector<Said> said;
    std::vector<std::string> whole;  // the names as said, to merge their parts
    for (const PartResult& p : r.parts)
        for (const Diagnosis& d : named_diagnoses(p)) {
            if (d.id == "float_precision" || derived_from_expected(d.id)) continue;
            auto at = std::find(whole.begin(), whole.end(), d.id);
            if (at != whole.end()) {
                said[at - whole.begin()].parts.push_back(p.name);
                continue;
            }
            whole.push_back(d.id);
            Said s{{}, {p.name}};
            for (std::size_t from = 0, bar = 0; from != std::string::npos; from = bar == std::string::npos ? bar : bar + 1) {
                bar = d.id.find('|', from);
                s.ids.push_back(d.id.substr(from, bar == std::string::npos ? bar : bar - from));
            }
            said.push_back(std::move(s));
        }
    return said;
}

ModelProof prove_model(const Exercise& e, int seeds) {
    ModelProof proof;
    proof.taped = !e.expected->model_changes(e, e.inputs, {}, 1).empty();
    if (!proof.taped) return proof;
    const Values right = expected_answers(e, e.inputs);
    for (const ModelChange& change : e.expected->model_changes(e, e.inputs, {}, std::size_t(-1))) {
        ModelProof::Tally& tally = proof.by_kind[change_kind(change.id)];
        if (same_numbers(e, change.answers, right)) {
            ++tally.invisible;
            continue;
        }
        const ExerciseResult r = judge_made_program(
            e, e.inputs,
            [&](const InputList& in) {
                std::optional<Values> made = e.expected->model_change(e, in, change.id);
                return made ? *made : expected_answers(e, in);
            },
            model_proof_student);
        // each thing said holds when its one id, or one of a tie's, is the change or gives its
        // numbers on the parts it is said on
        const std::vector<Said> said = slips_said(r);
        std::string false_names;
        bool alone = said.size() == 1 && said.front().ids.size() == 1;
        for (const Said& s : said) {
            const bool holds = std::any_of(s.ids.begin(), s.ids.end(), [&](const std::string& id) {
                return id == change.id || equivalent(e, id, change.id, s.parts, seeds);
            });
            if (!holds)
                for (const std::string& id : s.ids) false_names += (false_names.empty() ? "" : ", ") + id;
            alone = alone && s.ids.front() == change.id;
        }
        if (said.empty()) ++tally.left_over;
        else if (!false_names.empty()) {
            ++tally.wrong;
            proof.wrong.push_back(change.id + " (" + change.words.en + ") told " + false_names);
        } else if (alone) ++tally.named;
        else ++tally.tied;
    }
    return proof;
}

}  // namespace

ModelProof::Tally& ModelProof::Tally::operator+=(const Tally& more) {
    named += more.named, tied += more.tied, invisible += more.invisible, left_over += more.left_over, wrong += more.wrong;
    return *this;
}

ModelProof model_proof(const Exercise& e, int seeds) {
    static std::mutex mutex;
    static std::map<std::pair<std::string, int>, ModelProof> known;  // per exercise definition and seeds
    const std::pair<std::string, int> key{e.file.string() + "\n" + e.id + "\n" + e.variants.dump() + "\n" + case_key(e.inputs), seeds};
    {
        const std::lock_guard lock(mutex);
        if (auto it = known.find(key); it != known.end()) return it->second;
    }
    ModelProof proof = prove_model(e, seeds);
    const std::lock_guard lock(mutex);
    return known.emplace(key, std::move(proof)).first->second;
}

void check_model_proof(const Exercise& e, const std::string& file, int seeds, std::vector<Problem>& out) {
    for (const std::string& wrong : model_proof(e, seeds).wrong)
        out.push_back({file, "(error model)",
                       {"a single change of the reference's computation is told a slip it is not: " + wrong,
                        "参考解答计算中的一个单一改动被诊断成了别的错误：" + wrong}});
}

std::string model_proof_doc(const std::vector<const Exercise*>& exercises, int seeds) {
    ModelProof::Tally all;
    std::string rows, untaped;
    for (const Exercise* e : exercises) {
        const ModelProof proof = model_proof(*e, seeds);
        if (!proof.taped) {
            untaped += (untaped.empty() ? "" : ", ") + ("`" + e->id + "`");
            continue;
        }
        rows += fmt::format("\n### {}\n\n| kind | changes | named | tied | invisible | left over | named wrong |\n"
                            "|---|---|---|---|---|---|---|\n",
                            e->id);
        for (const auto& [kind, t] : proof.by_kind) {
            rows += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", kind, t.total(), t.named, t.tied, t.invisible,
                                t.left_over, t.wrong);
            all += t;
        }
    }
    return fmt::format(
        "\n## The error model: single changes of the recorded computation\n\n"
        "Every reference written generic over its scalar also runs on the tape (solutions/tape.hpp): each of its "
        "operations recorded on the book's inputs. For every exercise, every single change of each kind at each "
        "site (solutions/tape_changes.hpp) is made and its answers replayed from the tape, with no compile; a "
        "program printing them is judged as `grade` judges one, its names confirmed on variants where it prints "
        "the same change's answers. Named: its own change alone; tied: what is said holds but is not that alone "
        "(a tie of changes including it, or a catalogue entry or another change giving its numbers, on the parts "
        "it is said on, on the book's inputs and variants 1-{}); invisible: no answer moves at its declared precision on the book's inputs; left over: nothing named "
        "(not confirmed on the variants, or more than {} fitting alike). Named wrong: a name (or a tie) none of "
        "whose changes gives the change's numbers on the parts it is said on, on one of those cases (validate "
        "fails on any).\n\n"
        "| changes | named | tied | invisible | left over | named wrong |\n|---|---|---|---|---|---|\n"
        "| {} | {} | {} | {} | {} | {} |\n{}{}",
        seeds, max_model_tie, all.total(), all.named, all.tied, all.invisible, all.left_over, all.wrong, rows,
        untaped.empty() ? "" : "\nNot searched (a reference not on the tape yet, or one with no arithmetic to change: choices and true/false): " + untaped + ".\n");
}

}  // namespace blockcheck
