// Where expected answers come from: one interface, two providers. The full edition asks the
// reference solutions (computed through the block at 50 digits); the student edition reads the
// answers `blockcheck release` computed into data/expected/. Both hand every number over as its
// 50-digit decimal text, so the two editions grade the same numbers and reach the same verdicts.
#pragma once

#include "checker/common/i18n.hpp"
#include "base/value.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace blockcheck {

struct Exercise;
using InputList = std::vector<std::pair<std::string, std::string>>;

// Significant digits of every expected number, in both editions.
inline constexpr int expected_digits = 50;

// The expected answers of one case and, for each classic mistake the exercise declares that
// changes anything, the answers the block gives with that one mistake made (mistake id -> answers).
struct ExpectedCase {
    Values answers;
    std::map<std::string, Values> mistakes;
};

// One change of the error model made on one case (solutions/tape_changes.hpp): a small change to
// one operation of the reference's recorded computation. Its id is the same change on any inputs.
struct ModelChange {
    std::string id;  // "tape:<kind>:<site>"
    Text words;      // which operation, where, which way; never an expected value
    Values answers;  // the answers it gives, at the reference's precision
    std::vector<int> place;  // where on the tape: the node it is made at, then that node's operands
};

class ExpectedAnswers {
public:
    virtual ~ExpectedAnswers() = default;
    // True when this provider can answer for the exercise.
    virtual bool knows(const std::string& id) const = 0;
    // The expected answers for these inputs, by answer name; throws std::exception naming
    // the exercise when there are none.
    virtual Values answers(const Exercise& exercise, const InputList& inputs) const = 0;
    // The same with the mistakes' answers, for diagnosis.
    virtual ExpectedCase answers_and_mistakes(const Exercise& exercise, const InputList& inputs) const = 0;
    // The answers with the parts in `given` taken as a student printed them, each later step
    // computed from them, and each mistake's answers the same way (a step judged from the student's
    // own numbers); nullopt when the provider cannot. The student edition has no references: it
    // answers an empty `given` (a first step), feeds all right and feeds that one carried slip gives
    // (its StepCandidates), nothing else.
    virtual std::optional<ExpectedCase> answers_from_given(const Exercise&, const InputList&, const Values&) const {
        return std::nullopt;
    }
    // The answers with two mistakes made at once, for each pair of `pairs` the provider can make on
    // these inputs, by mistake_pair_key. Asked only when no single mistake explains a program. The
    // full edition asks the reference; by default, the pairs answers_and_mistakes carries.
    virtual std::map<std::string, Values> pair_mistakes(const Exercise& exercise, const InputList& inputs,
                                                        const std::vector<std::pair<std::string, std::string>>& pairs) const;
    // The error model: the single changes of the reference's recorded computation on these inputs
    // whose operation feeds every answer of `reach`, at most `limit`; none where the provider has
    // no tape (the student edition, a reference written for Real alone).
    virtual std::vector<ModelChange> model_changes(const Exercise&, const InputList&, const std::vector<std::string>& /*reach*/,
                                                   std::size_t /*limit*/) const {
        return {};
    }
    // The answers of change `id` on these inputs; nullopt when it cannot be made here.
    virtual std::optional<Values> model_change(const Exercise&, const InputList&, const std::string& /*id*/) const {
        return std::nullopt;
    }
    // The variant seeds it can grade, when it cannot grade every seed.
    virtual std::optional<std::vector<std::uint64_t>> carried_variants() const { return std::nullopt; }
};

// The key two mistakes made at once are filed under, "a+b"; is_mistake_pair tells such a key.
std::string mistake_pair_key(const std::string& a, const std::string& b);
bool is_mistake_pair(const std::string& key);

// This program's provider, what ExerciseSet::load(root) grades with. The student side only
// declares it; each program defines it once, and so picks its edition by what it links: the
// student edition's main (checker/student_main.cpp) reads `root`/data/expected/, and every
// program that links the course side gets the reference solutions
// (checker/course/expected_reference.cpp).
std::shared_ptr<const ExpectedAnswers> edition_answers(const std::filesystem::path& root);

// The provider reading `root`/data/expected/ (the student edition's; the full edition's tests
// use it to compare the two). A missing or malformed file is an InputFileError naming it.
std::shared_ptr<const ExpectedAnswers> answers_from_data(const std::filesystem::path& root);

// A value as it travels between the editions: numbers rounded to `expected_digits`.
std::string expected_text(const Value& value);
Value expected_value(const std::string& text);

// The key both editions file a case under: every input re-read and written at 50 digits, so
// "0.50" and "5e-1" name the same case.
std::string case_key(const InputList& inputs);

// A mistake made in one step alone, its feeds right: per step with feeds (Exercise::steps) and per
// mistake that changes the step there, the step's value from the right values of its feeds and
// every later part's computed from that value (step -> mistake id -> answers from the step on).
// What the student edition carries so that it names a one-step slip, and says that a later step
// follows from it, as the full edition does: the feeds are right, so it reveals nothing a
// right/wrong verdict does not.
using StepCandidates = std::map<std::string, std::map<std::string, Values>>;
StepCandidates step_candidates(const Exercise& exercise, const InputList& inputs, const Values& right);

// One case of an exercise's data file: {"id", "digits", "cases": [{"variant"?, "inputs",
// "answers", "mistakes"?: {id: answers}, "steps"?: {step: {id: answers}}}]}, what `release` writes
// and answers_from_data reads.
nlohmann::ordered_json expected_case(std::optional<std::uint64_t> variant, const InputList& inputs,
                                     const ExpectedCase& answers, const StepCandidates& steps = {});

// An unknown seed in the student edition: "this edition carries variants 1-5; ..." in the
// reader's language, as an InputFileError. Nothing when the provider grades every seed.
void require_carried_variant(const ExpectedAnswers& answers, std::uint64_t seed, Lang lang);

}  // namespace blockcheck
