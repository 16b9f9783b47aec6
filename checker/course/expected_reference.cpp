// The full edition's expected answers: the reference solutions, computed through the block. This
// file defines edition_answers() for every program that links the course side (CMakeLists.txt).
#include "checker/exercise/expected.hpp"

#include "checker/exercise/exercise_set.hpp"
#include "checker/exercise/mistake_catalogue.hpp"
#include "checker/exercise/protocol.hpp"
#include "solutions/exercise.hpp"
#include "solutions/tape_changes.hpp"

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
        return made(exercise, inputs, {});
    }

    std::optional<ExpectedCase> answers_from_given(const Exercise& exercise, const InputList& inputs,
                                                   const Values& given) const override {
        return made(exercise, inputs, given);
    }

    std::map<std::string, Values> pair_mistakes(const Exercise& exercise, const InputList& inputs,
                                                const std::vector<std::pair<std::string, std::string>>& pairs) const override {
        const Values values = parse_inputs(input_text(inputs), exercise.id + " inputs");
        std::map<std::string, Values> made;
        for (const auto& [pair, answers] : reference_pair_answers(exercise.id, values, pairs))
            made.emplace(mistake_pair_key(pair.first, pair.second), rounded(answers));
        return made;
    }

    std::vector<ModelChange> model_changes(const Exercise& exercise, const InputList& inputs, const std::vector<std::string>& reach,
                                           std::size_t limit) const override {
        std::vector<ModelChange> changes;
        if (!taped_reference(exercise.id)) return changes;
        const Values values = parse_inputs(input_text(inputs), exercise.id + " inputs");
        for (TapeChange& c : tape_changes(exercise.id, values, answer_order(exercise), reach, limit))
            changes.push_back({c.id, {std::move(c.en), std::move(c.zh)}, std::move(c.answers), std::move(c.place)});
        return changes;
    }

    std::optional<Values> model_change(const Exercise& exercise, const InputList& inputs, const std::string& id) const override {
        if (!taped_reference(exercise.id)) return std::nullopt;
        const Values values = parse_inputs(input_text(inputs), exercise.id + " inputs");
        return tape_change_answers(exercise.id, values, answer_order(exercise), id);
    }

private:
    static std::vector<std::string> answer_order(const Exercise& exercise) {
        std::vector<std::string> order;
        for (const AnswerSpec& spec : exercise.answers) order.push_back(spec.name);
        return order;
    }

    static ExpectedCase made(const Exercise& exercise, const InputList& inputs, const Values& given) {
        const Values values = parse_inputs(input_text(inputs), exercise.id + " inputs");
        const ReferenceAnswers reference = reference_answers_with_mistakes(exercise.id, values, exercise.mistakes, given);
        ExpectedCase answers{rounded(reference.expected), {}};
        for (const auto& [id, mistaken] : reference.mistakes) answers.mistakes.emplace(id, rounded(mistaken));
        // a porting name of a student's slip that gives the same answers here is that slip
        for (auto it = answers.mistakes.begin(); it != answers.mistakes.end();) {
            const MistakeEntry* entry = find_mistake(it->first);
            auto same = entry && !entry->same_slip_as.empty() ? answers.mistakes.find(entry->same_slip_as) : answers.mistakes.end();
            if (same != answers.mistakes.end() && same_texts(same->second, it->second)) it = answers.mistakes.erase(it);
            else ++it;
        }
        return answers;
    }

    static bool same_texts(const Values& a, const Values& b) {
        if (a.size() != b.size()) return false;
        for (const auto& [name, value] : a)
            if (!b.count(name) || expected_text(value) != expected_text(b.at(name))) return false;
        return true;
    }
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
