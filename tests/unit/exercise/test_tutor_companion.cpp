// The companion's mechanisms as the tutor reaches them (issue 34, the gqa_long_context blind
// corpus): each switch a reference runs, made on the book's inputs, gives the slip's numbers, and
// a step judged from the student's own values follows the slip on (or names it in that step).
#include "checker/course/mistake_programs.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"
#include "solutions/exercise.hpp"

#include <doctest/doctest.h>

#include "exercise_testing.hpp"

using namespace blockcheck;

namespace {

using testing::shipped_exercises;

// The reference of `id` on its book's inputs, with `mistake` made (none: "") and `given` the
// student's own values of some parts.
Values companion_answers(const std::string& id, const std::string& mistake = "", const Values* given = nullptr) {
    const Exercise& e = shipped_exercises().at(id);
    const Values inputs = parse_inputs(input_text(e.inputs), id);
    return reference_solutions().at(id)(Inputs(inputs, mistake, given));
}

const Real& companion_number(const Values& a, const std::string& name) { return std::get<Real>(a.at(name)); }
const Vector<Real>& companion_vector(const Values& a, const std::string& name) { return std::get<Vector<Real>>(a.at(name)); }

bool near(const Real& a, const Real& b) {
    using std::abs;
    return abs(a - b) <= Real("1e-45") * (Real(1) + abs(b));
}

const PartResult& companion_part(const ExerciseResult& r, const std::string& name) {
    for (const PartResult& p : r.parts)
        if (p.name == name) return p;
    FAIL("no part " << name);
    return r.parts.front();
}

}  // namespace

TEST_CASE("companion mistakes: linear interpolation's factor upside down multiplies every pair's speed") {
    // base 10000, d 8, factor 12.5: speeds 1, 0.1, 0.01, 0.001
    const Values a = companion_answers("interpolation_every_frequency", "factor_inverted");
    CHECK(companion_vector(a, "interpolated_inverse_frequencies").front() == Real("12.5"));
    for (const Real& s : companion_vector(a, "slowdown")) CHECK(near(s, Real("0.08")));
    CHECK(companion_number(companion_answers("ntk_aware_scaling", "factor_inverted"), "linear_first_inverse_frequency") == 8);
}

TEST_CASE("companion mistakes: the width's steps and SwiGLU's matrices switch in llama_ffn_width") {
    const Values missing = companion_answers("llama_ffn_width", "matrix_missing");
    CHECK(companion_number(missing, "same_width_swiglu_ratio") == 1);
    CHECK(companion_number(missing, "llama_swiglu_ffn_parameters") == Real(2 * 4096 * 11008));
    CHECK(companion_number(companion_answers("llama_ffn_width", "rounded_down"), "llama_ffn_hidden") == 10752);
    CHECK(companion_number(companion_answers("llama_ffn_width", "integer_two_thirds"), "two_thirds_width") == 0);
    // from the student's own two thirds (10923, rounded wrongly), rounding up is still 11008
    const Values own{{"two_thirds_width", Real(10923)}};
    CHECK(companion_number(companion_answers("llama_ffn_width", "", &own), "llama_ffn_hidden") == 11008);
}

TEST_CASE("companion mistakes: norms_forgotten leaves the gains out of the block's total only") {
    const Values a = companion_answers("llama_block_parameters", "norms_forgotten");
    CHECK(companion_number(a, "norm_parameters") == 8192);
    CHECK(companion_number(a, "block_parameters") == Real("202375168"));  // 202383360 - 8192
    // the total and the share from the student's own parts
    const Values own{{"attention_parameters", Real(1)}, {"ffn_parameters", Real(2)}, {"norm_parameters", Real(1)}};
    const Values b = companion_answers("llama_block_parameters", "", &own);
    CHECK(companion_number(b, "block_parameters") == 4);
    CHECK(companion_number(b, "ffn_share") == Real("0.5"));
}

TEST_CASE("companion mistakes: written_back_as_halves gives the demo's layout where in place is asked") {
    const Values halves = companion_answers("rope_write_back_layout", "written_back_as_halves");
    const Values demo = companion_answers("rope_attention_demo");
    CHECK(std::get<Matrix<Real>>(halves.at("q_interleaved")).values ==
          std::get<Matrix<Real>>(demo.at("q_rotated")).values);
    CHECK(std::get<Matrix<Real>>(companion_answers("rope_write_back_layout").at("q_interleaved")).values !=
          std::get<Matrix<Real>>(demo.at("q_rotated")).values);
}

TEST_CASE("companion mistakes: sum_not_mean reaches the tiny block's RMSNorm and the misconceptions' one") {
    // x row 0 = [1, -1, -1, -2], gains [1.25, 0.75, 1.25, 0.875], eps 1e-6: g x / sqrt(7 + 1e-6)
    const Values a = companion_answers("llama_block_tiny", "sum_not_mean");
    const Matrix<Real>& n = std::get<Matrix<Real>>(a.at("attention_input"));
    using std::abs;
    using std::sqrt;
    CHECK(abs(n(0, 0) - Real("1.25") / sqrt(Real("7.000001"))) < Real("1e-45"));
    CHECK(abs(n(0, 3) - Real("-1.75") / sqrt(Real("7.000001"))) < Real("1e-45"));
    // row [3, 4]: [3, 4] / 5
    const Values m = companion_answers("misconceptions_by_numbers", "sum_not_mean");
    REQUIRE(companion_vector(m, "rms_norm").size() == 2);
    CHECK(near(companion_vector(m, "rms_norm")[0], Real("0.6")));
    CHECK(near(companion_vector(m, "rms_norm")[1], Real("0.8")));
    CHECK(near(companion_number(m, "rms_norm_mean"), Real("0.7")));
}

TEST_CASE("companion steps: positions multiplied by the student's own factor are factor_inverted in that step") {
    const Values own{{"interpolation_factor", Real("12.5")}};
    CHECK(companion_number(companion_answers("position_interpolation", "", &own), "landed_position") == 8);
    CHECK(companion_number(companion_answers("position_interpolation", "factor_inverted", &own), "landed_position") == 1250);
    // a batch from the student's own bytes per sequence
    const Values bytes{{"mha_bytes_per_sequence", Real(1073741824LL)}};
    CHECK(companion_number(companion_answers("kv_cache_budget", "", &bytes), "mha_max_batch") == 40);
}

TEST_CASE("tutor: a float-sized error that follows from the student's own earlier parts is not called float") {
    // hidden 8192, 64 query heads, 8 K/V heads: F 22016, attention 150994944, FFN 541065216, norms
    // 16384, block 692076544. One gain vector counted (norm_parameters 8192): the block and the
    // share computed right from it are off by about 1.2e-5 relative, within what a float guess
    // allows, but they follow from the student's own parts.
    const Exercise& e = shipped_exercises().at("llama_block_parameters");
    const InputList inputs{{"hidden_size", "8192"}, {"query_heads", "64"}, {"kv_heads", "8"}, {"head_dim", "128"},
                           {"multiple_of", "256"}};
    Values printed = expected_answers_and_mistakes(e, inputs).answers;
    REQUIRE(std::get<Real>(printed.at("block_parameters")) == Real("692076544"));
    printed.at("norm_parameters") = Real(8192);
    printed.at("block_parameters") = Real("692068352");
    printed.at("ffn_share") = Real("541065216") / Real("692068352");
    const ExerciseResult r = grade_output(e, inputs, synthetic_output(e, printed), {});
    for (const char* name : {"block_parameters", "ffn_share"}) {
        CAPTURE(name);
        CHECK(companion_part(r, name).verdict == Verdict::wrong);
        CHECK_FALSE(companion_part(r, name).diagnosis);
        REQUIRE_FALSE(companion_part(r, name).notes.empty());
        CHECK(companion_part(r, name).notes.front().en.find("follows correctly from your own") != std::string::npos);
    }
}

TEST_CASE("companion mistakes: residual_from_norm adds the attention to N, residual_forgotten adds nothing; batch_rounded_up counts a part sequence") {
    const Values right = companion_answers("llama_block_tiny");
    const Values slip = companion_answers("llama_block_tiny", "residual_from_norm");
    const Matrix<Real>& x_n = std::get<Matrix<Real>>(slip.at("attention_input"));
    const Matrix<Real>& r_slip = std::get<Matrix<Real>>(slip.at("residual"));
    const Matrix<Real>& r_right = std::get<Matrix<Real>>(right.at("residual"));
    const Matrix<Real> x = std::get<Matrix<Real>>(
        parse_inputs(input_text(shipped_exercises().at("llama_block_tiny").inputs), "llama_block_tiny").at("x"));
    REQUIRE(r_slip.values.size() == x.values.size());
    using std::abs;
    for (std::size_t i = 0; i < x.values.size(); ++i)  // R - N with the slip is R - X without it: the same attention
        CHECK(abs((r_slip.values[i] - x_n.values[i]) - (r_right.values[i] - x.values[i])) < Real("1e-40"));
    CHECK(r_slip.values != r_right.values);
    // residual_forgotten: R is the attention output alone, R - X without the slip
    const Values alone = companion_answers("llama_block_tiny", "residual_forgotten");
    const Matrix<Real>& r_alone = std::get<Matrix<Real>>(alone.at("residual"));
    for (std::size_t i = 0; i < x.values.size(); ++i)  // (X + A) - X is A up to the reference's rounding
        CHECK(abs(r_alone.values[i] - (r_right.values[i] - x.values[i])) < Real("1e-40"));

    // 41 GiB for sequences of 10 GiB (MHA): 4 fit, a fifth only in part
    const Exercise& e = shipped_exercises().at("kv_cache_budget");
    Values inputs = parse_inputs(input_text(e.inputs), "kv_cache_budget");
    inputs.at("budget_gib") = Real(41);
    CHECK(companion_number(reference_solutions().at("kv_cache_budget")(Inputs(inputs)), "mha_max_batch") == 4);
    CHECK(companion_number(reference_solutions().at("kv_cache_budget")(Inputs(inputs, "batch_rounded_up")), "mha_max_batch") == 5);
}
