// The chapter's mechanisms as switches (issue 34, the ch25 blind corpus): each slip a student made
// there is made by the reference's shared function, so the tutor names it, and confirmation on
// other inputs refutes a mistake only where the inputs tell it apart.
#include "checker/course/mistake_programs.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/exercise/variants.hpp"

#include <doctest/doctest.h>

#include "exercise_testing.hpp"

using namespace blockcheck;

namespace {

using testing::shipped_exercises;

std::string mechanism_ids_named(const ExerciseResult& r) {
    std::string ids;
    for (const PartResult& p : r.parts)
        for (const Diagnosis& d : named_diagnoses(p)) ids += p.name + ":" + d.id + " ";
    return ids;
}

// The program that makes mistake `id` on the book's inputs, graded there.
ExerciseResult mechanism_graded_with(const Exercise& e, const std::string& id) {
    const ExpectedCase c = expected_answers_and_mistakes(e, e.inputs);
    REQUIRE_MESSAGE(c.mistakes.count(id) == 1, id);
    return grade_output(e, e.inputs, synthetic_output(e, c.mistakes.at(id)), {});
}

// An input's number, as its text reads.
double input_as_number(const InputList& inputs, const std::string& name) {
    for (const auto& [n, text] : inputs)
        if (n == name) return std::stod(text);
    FAIL("no input " << name);
    return 0;
}

}  // namespace

TEST_CASE("tutor: LayerNorm takes the norms' slips; one without its mean is RMSNorm, named mean_not_subtracted") {
    const Exercise& e = shipped_exercises().at("rms_norm_vs_layer_norm");
    const ExpectedCase c = expected_answers_and_mistakes(e, e.inputs);  // row [3, 4], shift 1
    // LayerNorm without the mean is the row's RMSNorm: [3, 4] / sqrt(12.5)
    const Vector<Real>& uncentred = std::get<Vector<Real>>(c.mistakes.at("mean_not_subtracted").at("layer_norm"));
    CHECK(abs(uncentred[0] - Real(3) / sqrt(Real("12.5"))) < Real("1e-40"));
    // divided by the variance 0.25 instead of its root 0.5: [-2, 2]
    const Vector<Real>& rootless = std::get<Vector<Real>>(c.mistakes.at("root_omitted").at("layer_norm"));
    CHECK(abs(rootless[1] - Real(2)) < Real("1e-40"));
    // the deviations' squares summed: divided by sqrt(0.5), [-1 / sqrt 2, 1 / sqrt 2]
    const Vector<Real>& summed = std::get<Vector<Real>>(c.mistakes.at("sum_not_mean").at("layer_norm"));
    CHECK(abs(summed[1] - Real(1) / sqrt(Real(2))) < Real("1e-40"));
    CHECK(mechanism_ids_named(mechanism_graded_with(e, "mean_not_subtracted")) ==
          "layer_norm:mean_not_subtracted shifted_layer_norm:mean_not_subtracted ");
    CHECK(mechanism_ids_named(mechanism_graded_with(e, "root_omitted")).find("layer_norm:root_omitted") != std::string::npos);
    // in rms_norm_shift the booleans follow: LayerNorm without its mean is not shift-invariant
    const Exercise& shift = shipped_exercises().at("rms_norm_shift");
    const ExpectedCase s = expected_answers_and_mistakes(shift, shift.inputs);
    CHECK(std::get<bool>(s.mistakes.at("mean_not_subtracted").at("layer_norm_keeps_output")) == false);
}

TEST_CASE("tutor: SiLU with the exponent's sign lost is named silu_exponent_sign, in every FFN") {
    const Exercise& e = shipped_exercises().at("swiglu_ffn_2d");
    const ExpectedCase c = expected_answers_and_mistakes(e, e.inputs);  // gate [1, -1]
    const Vector<Real>& silu = std::get<Vector<Real>>(c.mistakes.at("silu_exponent_sign").at("silu"));
    CHECK(abs(silu[0] - Real(1) / (Real(1) + exp(Real(1)))) < Real("1e-40"));
    CHECK(mechanism_ids_named(mechanism_graded_with(e, "silu_exponent_sign")).find("silu:silu_exponent_sign") != std::string::npos);
    // the block's FFN takes its activation through the same switch
    const Exercise& block = shipped_exercises().at("llama_block_tiny");
    CHECK(expected_answers_and_mistakes(block, block.inputs).mistakes.count("silu_exponent_sign") == 1);
}

TEST_CASE("tutor: the counts' slips reach the matched width and the ReLU count") {
    const Exercise& budget = shipped_exercises().at("swiglu_matched_budget");  // C 24, F 96
    const ExpectedCase b = expected_answers_and_mistakes(budget, budget.inputs);
    CHECK(expected_text(b.mistakes.at("integer_two_thirds").at("matched_ffn_hidden_size")) == "0");
    CHECK(mechanism_ids_named(mechanism_graded_with(budget, "integer_two_thirds")) ==
          "matched_ffn_hidden_size:integer_two_thirds matched_swiglu_ffn_parameters:integer_two_thirds ");
    const Exercise& counts = shipped_exercises().at("ffn_parameter_counts");  // C 12, F 48
    const ExpectedCase f = expected_answers_and_mistakes(counts, counts.inputs);
    CHECK(expected_text(f.mistakes.at("matrix_missing").at("relu_ffn_parameters")) == "576");  // one matrix, C F
    // the norm's C gains counted with every FFN: 2 C F + C, 3 C F + C, 3 C F_narrow + C
    CHECK(expected_text(f.mistakes.at("norm_gains_counted").at("relu_ffn_parameters")) == "1164");
    CHECK(mechanism_ids_named(mechanism_graded_with(counts, "norm_gains_counted")) ==
          "relu_ffn_parameters:norm_gains_counted swiglu_ffn_parameters:norm_gains_counted "
          "narrow_swiglu_ffn_parameters:norm_gains_counted ");
    // the budget equation solved upside down: 3 F / 2 = 144
    CHECK(expected_text(b.mistakes.at("two_thirds_inverted").at("matched_ffn_hidden_size")) == "144");
    CHECK(mechanism_ids_named(mechanism_graded_with(budget, "two_thirds_inverted")) ==
          "matched_ffn_hidden_size:two_thirds_inverted matched_swiglu_ffn_parameters:two_thirds_inverted ");
}

TEST_CASE("tutor: a reversed relative angle is named difference_reversed, and a whole turn refutes nothing") {
    const Exercise& e = shipped_exercises().at("rope_later_positions");
    CHECK(mechanism_ids_named(mechanism_graded_with(e, "difference_reversed")) == "relative_angle_degrees:difference_reversed ");
    // A student whose confirming variants turn the key a whole number of turns beyond the query:
    // there the reversed difference prints -360 for 360, the same angle, so it cannot refute.
    auto program_on = [&](const InputList& inputs) {
        const ExpectedCase c = expected_answers_and_mistakes(e, inputs);
        return grade_output(e, inputs, synthetic_output(e, c.mistakes.at("difference_reversed")), {});
    };
    auto whole_turn = [&](const InputList& inputs) {
        const double turn = (input_as_number(inputs, "key_position") - input_as_number(inputs, "query_position")) *
                            input_as_number(inputs, "angle_degrees");
        return turn != 0 && std::fmod(turn, 360.0) == 0;
    };
    std::string student;
    for (int i = 0; student.empty(); ++i) {
        REQUIRE(i < 20000);
        const std::string s = "student" + std::to_string(i);
        if (!whole_turn(variant_inputs(e, variant_seed(s + "/confirm/0", e.id))) ||
            !whole_turn(variant_inputs(e, variant_seed(s + "/confirm/1", e.id))))
            continue;
        if (mechanism_ids_named(program_on(variant_inputs(e, variant_seed(s, e.id)))) == "relative_angle_degrees:difference_reversed ")
            student = s;
    }
    CAPTURE(student);
    ExerciseResult r = program_on(variant_inputs(e, variant_seed(student, e.id)));
    confirm_diagnoses(e, r, student, program_on);
    CHECK(mechanism_ids_named(r) == "relative_angle_degrees:difference_reversed ");
}

TEST_CASE("tutor: an epsilon typed in where the exercise asks for 0 is named eps_added, never float") {
    const Exercise& e = shipped_exercises().at("rms_norm_vs_layer_norm");
    const ExpectedCase c = expected_answers_and_mistakes(e, e.inputs);  // row [3, 4]: mean square 12.5
    const Vector<Real>& eps = std::get<Vector<Real>>(c.mistakes.at("eps_added").at("rms_norm"));
    CHECK(abs(eps[1] - Real(4) / sqrt(Real("12.50001"))) < Real("1e-40"));
    // LayerNorm 1.6e-6 off at 4e-7 relative: float-sized, yet the epsilon explains it exactly
    // named once confirmed on other inputs, as check and grade do (a part is never judged alone)
    const std::string named = mechanism_ids_named(judge_made_program(
        e, e.inputs, [&](const InputList& inputs) { return expected_answers_and_mistakes(e, inputs).mistakes.at("eps_added"); },
        "student0"));
    CHECK(named == "root_mean_square:eps_added layer_norm:eps_added shifted_layer_norm:eps_added ");
    // the zero row normalises to zeros under any epsilon: excluded there, with its reason
    const Exercise& zero = shipped_exercises().at("rms_norm_zero_row");
    CHECK(expected_answers_and_mistakes(zero, zero.inputs).mistakes.count("eps_added") == 0);
}

TEST_CASE("tutor: a student's own variant hides no slip the book's inputs show") {
    const Exercise& e = shipped_exercises().at("rope_later_positions");
    // On a draw turning the query and the key by whole half turns (position 0, three steps of 60
    // degrees), clockwise and counter-clockwise agree: a student drawing it could turn either way.
    auto hides_clockwise = [&](std::uint64_t seed) {
        const ExpectedCase c = expected_answers_and_mistakes(e, variant_inputs(e, seed));
        return c.mistakes.count("clockwise_rotation") == 0 ||
               std::all_of(e.answers.begin(), e.answers.end(), [&](const AnswerSpec& spec) {
                   return !mistake_changes(spec, c.mistakes.at("clockwise_rotation").at(spec.name), c.answers.at(spec.name));
               });
    };
    int hidden_first = 0;
    for (int i = 0; i < 200; ++i) {
        const std::string student = "student" + std::to_string(i);
        hidden_first += hides_clockwise(variant_seed(student, e.id));
        CHECK_FALSE(hides_clockwise(student_variant_seed(e, student)));
    }
    CHECK(hidden_first > 0);  // the plain draws do hide it, now and then
    // a draw that already shows everything is kept: most students keep their inputs
    CHECK(student_variant_seed(e, "ada") == variant_seed("ada", e.id));
}
