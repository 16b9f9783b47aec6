// The full edition's provider: the reference solutions, computed through the block.
#include "checker/exercise/expected.hpp"

#include "checker/exercise/exercise_set.hpp"
#include "checker/exercise/protocol.hpp"
#include "solutions/exercise.hpp"

namespace blockcheck {
namespace {

class ReferenceAnswers final : public ExpectedAnswers {
public:
    bool knows(const std::string& id) const override { return reference_solutions().count(id) > 0; }

    // The reference's values rounded to their 50-digit text, as the student edition stores them.
    Values answers(const Exercise& exercise, const InputList& inputs) const override {
        const Values values = parse_inputs(input_text(inputs), exercise.id + " inputs");
        Values answers;
        for (const auto& [name, value] : reference_solutions().at(exercise.id)(Inputs(values)))
            answers.emplace(name, expected_value(expected_text(value)));
        return answers;
    }
};

}  // namespace

#ifndef BLOCKCHECK_STUDENT_EDITION
std::shared_ptr<const ExpectedAnswers> edition_answers(const std::filesystem::path&) {
    return std::make_shared<ReferenceAnswers>();
}
#endif

}  // namespace blockcheck
