// The tutor's switch (AnswerCompareOptions::tutor), what `bench --grading` turns off to measure
// its cost side by side: off, a program with a classic slip keeps every verdict and score and is
// told no diagnosis and no note.
#include "checker/course/mistake_programs.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"
#include "exercise_testing.hpp"

#include <doctest/doctest.h>

using namespace blockcheck;
using blockcheck::testing::shipped_exercises;

TEST_CASE("tutor switch: off, a classic slip keeps its verdicts and scores and is told nothing") {
    const Exercise& e = shipped_exercises().at("swiglu_ffn_2d");
    const ExpectedCase c = expected_answers_and_mistakes(e, e.inputs);
    const std::string output = synthetic_output(e, c.mistakes.at("sigmoid_for_silu"));
    const ExerciseResult on = grade_output(e, e.inputs, output, {});
    AnswerCompareOptions off;
    off.tutor = false;
    const ExerciseResult bare = grade_output(e, e.inputs, output, off);
    REQUIRE(on.parts.size() == bare.parts.size());
    std::size_t named = 0;
    for (std::size_t i = 0; i < on.parts.size(); ++i) {
        CAPTURE(on.parts[i].name);
        CHECK(bare.parts[i].verdict == on.parts[i].verdict);
        CHECK(bare.parts[i].score == on.parts[i].score);
        CHECK(named_diagnoses(bare.parts[i]).empty());
        CHECK(bare.parts[i].notes.empty());
        named += !named_diagnoses(on.parts[i]).empty();
    }
    CHECK(named == 1);  // silu, where the slip is made, with the tutor (the steps after it follow from it)
    CHECK(on.parts[3].follow_through.value_or(0) == 1);
    CHECK(bare.status == on.status);
}
