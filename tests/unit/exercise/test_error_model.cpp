// The error model's search (diagnosis.hpp: explain_by_error_model): a slip no catalogue entry
// declares is named when one change of the reference's recorded computation reproduces the whole
// program and does so again on the confirming variants; a program the change explains on the
// book's inputs alone is told nothing.
#include "checker/course/mistake_programs.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/exercise/protocol.hpp"

#include <doctest/doctest.h>

#include "exercise_testing.hpp"

using namespace blockcheck;

namespace error_model_test {

const Exercise& exercise(const std::string& id) { return testing::shipped_exercises().at(id); }

// The id of the change of `kind` on `e`'s book inputs whose words say `says`.
ModelChange change_saying(const Exercise& e, const std::string& kind, const std::string& says) {
    std::vector<ModelChange> found;
    for (ModelChange& c : e.expected->model_changes(e, e.inputs, {}, 100000))
        if (c.id.starts_with("tape:" + kind + ":") && c.words.en.find(says) != std::string::npos) found.push_back(std::move(c));
    REQUIRE(found.size() == 1);
    return found.front();
}

// What the judge named, each id once.
std::vector<std::string> named_ids(const ExerciseResult& r) {
    std::vector<std::string> ids;
    for (const PartResult& p : r.parts)
        for (const Diagnosis& d : named_diagnoses(p))
            if (std::find(ids.begin(), ids.end(), d.id) == ids.end()) ids.push_back(d.id);
    return ids;
}

}  // namespace error_model_test


TEST_CASE("error model: a slowdown computed upside down, declared nowhere, is named and confirmed") {
    const Exercise& e = error_model_test::exercise("ntk_aware_scaling");
    const ModelChange upside_down = error_model_test::change_saying(e, "swapped", "ntk_last_inverse_frequency / last_inverse_frequency");
    CHECK(!known_mistake(upside_down.id));
    // the program makes the same slip on every input it is given
    const ExerciseResult r = judge_made_program(
        e, e.inputs, [&](const InputList& in) { return *e.expected->model_change(e, in, upside_down.id); }, "test/error-model");
    REQUIRE(error_model_test::named_ids(r) == std::vector<std::string>{upside_down.id});
    for (const PartResult& p : r.parts) {
        CAPTURE(p.name);
        CHECK((p.verdict == Verdict::wrong) == (p.name == "last_pair_slowdown"));
        if (p.name != "last_pair_slowdown") continue;
        REQUIRE(p.diagnosis);
        CHECK(p.diagnosis->message.en.find("other way round") != std::string::npos);
        CHECK(p.diagnosis->message.zh.find("颠倒") != std::string::npos);
        CHECK(p.diagnosis->message.en.find("8") == std::string::npos);  // the slowdown it should be is never said
    }
}

TEST_CASE("error model: numbers a change gives on the book's inputs alone are not named") {
    const Exercise& e = error_model_test::exercise("ntk_aware_scaling");
    const ModelChange upside_down = error_model_test::change_saying(e, "swapped", "ntk_last_inverse_frequency / last_inverse_frequency");
    // the book's inputs: the change's numbers; every other input: right answers
    const ExerciseResult r = judge_made_program(
        e, e.inputs,
        [&](const InputList& in) { return in == e.inputs ? upside_down.answers : expected_answers(e, in); }, "test/error-model");
    CHECK(error_model_test::named_ids(r).empty());
    // and with no change at all fitting (a number off by an odd amount), nothing either
    Values odd = expected_answers(e, e.inputs);
    std::get<Real>(odd.at("last_pair_slowdown")) += Real("0.37");
    const ExerciseResult none = grade_output(e, e.inputs, synthetic_output(e, odd), {});
    CHECK(error_model_test::named_ids(none).empty());
}
