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

// True when no answer of `a` would pass as a different one of `b`'s at its declared precision.
bool same_numbers(const Exercise& e, const Values& a, const Values& b) {
    for (const AnswerSpec& spec : e.answers) {
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

// True when `named` gives the change's numbers on the book's inputs and the first `seeds` variants.
bool equivalent(const Exercise& e, const std::string& named, const std::string& change, int seeds) {
    for (int s = 0; s <= (e.variants.empty() ? 0 : seeds); ++s) {
        try {
            const InputList inputs = model_case_inputs(e, s);
            const std::optional<Values> c = e.expected->model_change(e, inputs, change), x = named_answers(e, inputs, named);
            if (!c && !x) continue;
            if (!c || !x || !same_numbers(e, *x, *c)) return false;
        } catch (const std::exception&) {
            // no answers on these inputs: no evidence either way
        }
    }
    return true;
}

// The names a result carries that say a slip was made (not a sign or a factor read off the value,
// not float's note): a tie's ids each.
std::vector<std::string> slip_names(const ExerciseResult& r, bool& tie) {
    std::vector<std::string> ids;
    for (const PartResult& p : r.parts)
        for (const Diagnosis& d : named_diagnoses(p)) {
            if (d.id == "float_precision" || derived_from_expected(d.id)) continue;
            std::size_t from = 0;
            for (std::size_t bar = d.id.find('|'); from != std::string::npos; bar = d.id.find('|', from)) {
                const std::string id = d.id.substr(from, bar == std::string::npos ? bar : bar - from);
                tie = tie || bar != std::string::npos;
                if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
                from = bar == std::string::npos ? bar : bar + 1;
            }
        }
    return ids;
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
        bool tie = false;
        const std::vector<std::string> named = slip_names(r, tie);
        std::vector<std::string> false_names;
        for (const std::string& id : named)
            if (id != change.id && !equivalent(e, id, change.id, seeds)) false_names.push_back(id);
        if (named.empty()) ++tally.left_over;
        else if (!false_names.empty()) {
            ++tally.wrong;
            std::string told;
            for (const std::string& id : false_names) told += (told.empty() ? "" : ", ") + id;
            proof.wrong.push_back(change.id + " (" + change.words.en + ") told " + told);
        } else if (named.size() == 1 && !tie) ++tally.named;
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
        "the same change's answers. Named: its own change (or a catalogue entry giving the same numbers, in the "
        "catalogue's words); tied: named with changes giving the same numbers on the book's inputs and variants "
        "1-{}; invisible: no answer moves at its declared precision on the book's inputs; left over: nothing named "
        "(not confirmed on the variants, another change fitting as well, or more than {} fitting alike). Named "
        "wrong: a name whose numbers differ from the change's on one of those cases (validate fails on any).\n\n"
        "| changes | named | tied | invisible | left over | named wrong |\n|---|---|---|---|---|---|\n"
        "| {} | {} | {} | {} | {} | {} |\n{}{}",
        seeds, max_model_tie, all.total(), all.named, all.tied, all.invisible, all.left_over, all.wrong, rows,
        untaped.empty() ? "" : "\nNot on the tape (references written for Real alone; none of their slips is searched): " + untaped + ".\n");
}

}  // namespace blockcheck
