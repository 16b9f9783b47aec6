// The tutor's words are never stronger than its evidence (issue 39 item 6): a factor, a sign or a
// property read off one part's value is said only when the program earns it again on the
// confirming variants; a step with no declared inputs is judged with the whole program.
#include "checker/course/mistake_programs.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/exercise/variants.hpp"

#include <doctest/doctest.h>

#include "exercise_testing.hpp"

using namespace blockcheck;

namespace {

using testing::shipped_exercises;

const PartResult& words_part(const ExerciseResult& r, const std::string& name) {
    for (const PartResult& p : r.parts)
        if (p.name == name) return p;
    FAIL("no part " << name);
    return r.parts.front();
}

Real count_input(const InputList& inputs, const std::string& name) {
    for (const auto& [key, value] : inputs)
        if (key == name) return Real(value.c_str());
    FAIL("no input " << name);
    return Real(0);
}

// The right answers, with relu_ffn_parameters replaced by `relu(C, F)`.
std::function<Values(const InputList&)> relu_count_as(const Exercise& e, std::function<Real(const Real&, const Real&)> relu) {
    return [&e, relu](const InputList& inputs) {
        Values v = expected_answers(e, inputs);
        v["relu_ffn_parameters"] = Value(relu(count_input(inputs, "hidden_size"), count_input(inputs, "ffn_hidden_size")));
        return v;
    };
}

}  // namespace

TEST_CASE("tutor words: a factor that holds only on the book's inputs (F = 4C) is never said") {
    const Exercise& e = shipped_exercises().at("ffn_parameter_counts");
    REQUIRE(count_input(e.inputs, "ffn_hidden_size") == 4 * count_input(e.inputs, "hidden_size"));
    // relu counted as 16 C^2: twice 2CF where F = 4C, and no simple factor of it elsewhere
    const auto sixteen_c_squared = relu_count_as(e, [](const Real& c, const Real&) { return Real(16) * c * c; });
    const ExerciseResult unconfirmed = grade_output(e, e.inputs, synthetic_output(e, sixteen_c_squared(e.inputs)), {});
    REQUIRE(words_part(unconfirmed, "relu_ffn_parameters").diagnosis);
    CHECK(words_part(unconfirmed, "relu_ffn_parameters").diagnosis->message.en == "off by a factor of 2");
    std::string student;
    for (int i = 0; student.empty(); ++i) {
        REQUIRE(i < 1000);
        const std::string s = "student" + std::to_string(i);
        bool apart = true;
        for (int k = 0; k < 2; ++k) {
            const InputList v = variant_inputs(e, variant_seed(s + "/confirm/" + std::to_string(k), e.id));
            const Real c = count_input(v, "hidden_size"), f = count_input(v, "ffn_hidden_size");
            apart = apart && f != 4 * c && f != 16 * c;
        }
        if (apart) student = s;
    }
    CAPTURE(student);
    const ExerciseResult r = judge_made_program(e, e.inputs, sixteen_c_squared, student);
    CHECK(words_part(r, "relu_ffn_parameters").verdict == Verdict::wrong);
    CHECK_FALSE(words_part(r, "relu_ffn_parameters").diagnosis);
    // a program that really doubles it is told so: the factor holds on every input
    const ExerciseResult doubled = judge_made_program(e, e.inputs, relu_count_as(e, [](const Real& c, const Real& f) { return Real(4) * c * f; }), student);
    REQUIRE(words_part(doubled, "relu_ffn_parameters").diagnosis);
    CHECK(words_part(doubled, "relu_ffn_parameters").diagnosis->message.en == "off by a factor of 2");
}

TEST_CASE("tutor words: a step with no inputs of its own is judged with the whole program (3/2 in integers)") {
    const Exercise& e = shipped_exercises().at("llama_ffn_width");
    // every part right but the ratio 3/2 computed in integers: 1, which a SwiGLU FFN counted with
    // two matrices also gives there; but that slip would change the counts, and they are right
    const ExerciseResult r = judge_made_program(e, e.inputs, [&](const InputList& inputs) {
        Values v = expected_answers(e, inputs);
        v["same_width_swiglu_ratio"] = Value(Real(1));
        return v;
    }, "student0");
    CHECK(words_part(r, "same_width_swiglu_ratio").verdict == Verdict::wrong);
    for (const PartResult& p : r.parts) {
        CAPTURE(p.name);
        for (const Diagnosis& d : named_diagnoses(p)) CHECK(d.id != "matrix_missing");
    }
    // the whole slip, every part it changes, is still named
    const ExerciseResult whole = judge_made_program(e, e.inputs, [&](const InputList& inputs) {
        return expected_answers_and_mistakes(e, inputs).mistakes.at("matrix_missing");
    }, "student0");
    REQUIRE(words_part(whole, "same_width_swiglu_ratio").diagnosis);
    CHECK(words_part(whole, "same_width_swiglu_ratio").diagnosis->id == "matrix_missing");
}
