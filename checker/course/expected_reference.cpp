// The full edition's expected answers: the reference solutions, computed through the block. This
// file defines edition_answers() for every program that links the course side (CMakeLists.txt).
#include "checker/exercise/expected.hpp"

#include "checker/exercise/exercise_set.hpp"
#include "checker/exercise/protocol.hpp"
#include "solutions/exercise.hpp"

namespace blockcheck {
namespace {

class ReferenceProvider final : public ExpectedAnswers {
public:
    bool knows(const std::string& id) const override { return reference_solutions().count(id) > 0; }

    // The reference's values rounded to their 50-digit text, as the student edition stores them.
    Values answers(const Exercise& exercise, const InputList& inputs) const override {
        const Values values = parse_inputs(input_text(inputs), exercise.id + " inputs");
        return rounded(reference_answers(exercise.id, values));
    }

    // The same with the exercise's mistakes (and the generic input ones), computed through the block.
    ExpectedCase answers_and_mistakes(const Exercise& exercise, const InputList& inputs) const override {
        const Values values = parse_inputs(input_text(inputs), exercise.id + " inputs");
        const ReferenceAnswers reference = reference_answers_with_mistakes(exercise.id, values, exercise.mistakes);
        ExpectedCase answers{rounded(reference.expected), {}};
        for (const auto& [id, mistaken] : reference.mistakes) answers.mistakes.emplace(id, rounded(mistaken));
        return answers;
    }

private:
    static Values rounded(const Values& values) {
        Values answers;
        for (const auto& [name, value] : values) answers.emplace(name, expected_value(expected_text(value)));
        return answers;
    }
};

}  // namespace

std::shared_ptr<const ExpectedAnswers> edition_answers(const std::filesystem::path&) {
    return std::make_shared<ReferenceProvider>();
}

}  // namespace blockcheck
