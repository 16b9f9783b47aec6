// Follow-through credit (issue 40 item 1): a later step earns it only where the student's early
// value is one the step could produce (not zero, tiny or constant in the inputs), the later step
// depends on it, and the program's values move with its inputs. Forged early values earn nothing;
// an honest early slip, catalogued or not, still earns it on the steps that follow.
#include "checker/course/mistake_programs.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "exercise_testing.hpp"

using namespace blockcheck;

namespace {

using testing::shipped_exercises;

const Exercise& ft_swiglu() { return shipped_exercises().at("swiglu_ffn_2d"); }

const PartResult& ft_part(const ExerciseResult& r, const std::string& name) {
    for (const PartResult& p : r.parts)
        if (p.name == name) return p;
    FAIL("no part " << name);
    return r.parts.front();
}

double ft_credit(const ExerciseResult& r, const std::string& name) { return ft_part(r, name).follow_through.value_or(0); }

// The answers of a program that prints `early` (some parts, as given) and computes every later
// step from them as the reference does.
Values from_early(const Exercise& e, const InputList& inputs, const Values& early) {
    const auto c = e.expected->answers_from_given(e, inputs, early);
    REQUIRE(c);
    Values all = c->answers;
    for (const auto& [name, value] : early) all[name] = value;
    return all;
}

// An uncatalogued slip in SiLU: a * sigmoid(2a) for a * sigmoid(a).
Values honest_silu_slip(const Exercise& e, const InputList& inputs) {
    const Vector<Real> gate = std::get<Vector<Real>>(expected_answers(e, inputs).at("gate"));
    Vector<Real> silu;
    for (const Real& a : gate) silu.push_back(a / (Real(1) + exp(Real(-2) * a)));
    return from_early(e, inputs, {{"silu", Value(silu)}});
}

// Graded with --follow-through, then confirmed on other inputs as check and grade do.
ExerciseResult ft_judged(const Exercise& e, const std::function<Values(const InputList&)>& make) {
    const AnswerCompareOptions credit_given{false, true, true};
    auto grade_on = [&](const InputList& inputs) { return grade_output(e, inputs, synthetic_output(e, make(inputs)), credit_given); };
    ExerciseResult r = grade_on(e.inputs);
    confirm_diagnoses(e, r, "test/follow-through", grade_on);
    return r;
}

}  // namespace

TEST_CASE("follow-through: five constants of 1e-300 earn nothing (they earned 4/6)") {
    const Exercise& e = ft_swiglu();
    const Vector<Real> tiny{Real("1e-300"), Real("1e-300")};
    const Values forged = from_early(e, e.inputs, {{"gate", Value(tiny)}, {"up", Value(tiny)}});
    const ExerciseResult r = ft_judged(e, [&](const InputList&) { return forged; });
    CHECK(ft_credit(r, "silu") == 0);
    CHECK(ft_credit(r, "swiglu_hidden") == 0);
    CHECK(ft_credit(r, "swiglu_ffn") == 0);
    CHECK(r.score == 0);
}

TEST_CASE("follow-through: zero early values earn nothing") {
    const Exercise& e = ft_swiglu();
    const Vector<Real> zero{Real(0), Real(0)};
    const ExerciseResult r = ft_judged(e, [&](const InputList& inputs) { return from_early(e, inputs, {{"silu", Value(zero)}}); });
    CHECK(ft_part(r, "silu").verdict == Verdict::wrong);
    CHECK(ft_credit(r, "swiglu_hidden") == 0);
    CHECK(ft_credit(r, "swiglu_ffn") == 0);
    CHECK(r.score == 2);  // gate and up
}

TEST_CASE("follow-through: an early value constant in the inputs, or a hard-coded program, earns nothing") {
    const Exercise& e = ft_swiglu();
    const Values book = honest_silu_slip(e, e.inputs);
    // the slip's silu printed on every input, the later steps computed from it
    const ExerciseResult constant =
        ft_judged(e, [&](const InputList& inputs) { return from_early(e, inputs, {{"silu", book.at("silu")}}); });
    CHECK(ft_credit(constant, "swiglu_hidden") == 0);
    CHECK(ft_credit(constant, "swiglu_ffn") == 0);  // its own feed moves, the slip it comes from does not
    // every answer printed as on the book's inputs
    const ExerciseResult copied = ft_judged(e, [&](const InputList&) { return book; });
    CHECK(ft_credit(copied, "swiglu_hidden") == 0);
    CHECK(ft_credit(copied, "swiglu_ffn") == 0);
    CHECK(copied.score == 2);
}

TEST_CASE("follow-through: an honest early slip earns it on the later steps, catalogued or not") {
    const Exercise& e = ft_swiglu();
    const ExerciseResult honest = ft_judged(e, [&](const InputList& inputs) { return honest_silu_slip(e, inputs); });
    CHECK(ft_part(honest, "silu").verdict == Verdict::wrong);
    CHECK(ft_credit(honest, "swiglu_hidden") == 1);
    CHECK(ft_credit(honest, "swiglu_ffn") == 2);
    CHECK(honest.score == 5);
    // sigmoid for SiLU, a catalogued slip: named on silu, where it is made; the steps after it
    // follow from the student's own silu and earn their credit as an uncatalogued slip's do
    const ExerciseResult sigmoid = ft_judged(e, [&](const InputList& inputs) {
        return expected_answers_and_mistakes(e, inputs).mistakes.at("sigmoid_for_silu");
    });
    REQUIRE(ft_part(sigmoid, "silu").diagnosis);
    CHECK(ft_part(sigmoid, "silu").diagnosis->id == "sigmoid_for_silu");
    CHECK_FALSE(ft_part(sigmoid, "swiglu_hidden").diagnosis);
    CHECK(ft_credit(sigmoid, "swiglu_hidden") == 1);
    CHECK(ft_credit(sigmoid, "swiglu_ffn") == 2);
    CHECK(sigmoid.score == 5);
}

TEST_CASE("follow-through: a plausible early value is like the right one or a catalogued slip's") {
    const Value right(Vector<Real>{Real("0.73"), Real("-0.27")});
    const Value sigmoid(Vector<Real>{Real("0.73"), Real("0.27")});
    CHECK(plausible_step_value(Value(Vector<Real>{Real("0.9"), Real("-0.1")}), right, {}));
    CHECK_FALSE(plausible_step_value(Value(Vector<Real>{Real("0.73"), Real("0.27")}), right, {}));  // a sign off
    CHECK(plausible_step_value(Value(Vector<Real>{Real("0.73"), Real("0.27")}), right, {&sigmoid}));
    CHECK_FALSE(plausible_step_value(Value(Vector<Real>{Real("1e-300"), Real("-1e-300")}), right, {}));  // tiny
    CHECK_FALSE(plausible_step_value(Value(Vector<Real>{Real(0), Real(0)}), right, {&sigmoid}));        // zero
    CHECK_FALSE(plausible_step_value(Value(Vector<Real>{Real(30), Real(-3)}), right, {}));              // 40 times
}

namespace {

// `v` with every number replaced by 1e-300 (the same shape): the forged early value of issue 40.
Value ft_tiny_like(const Value& v) {
    const Real tiny("1e-300");
    if (std::holds_alternative<Real>(v)) return Value(tiny);
    if (const auto* vec = std::get_if<Vector<Real>>(&v)) return Value(Vector<Real>(vec->size(), tiny));
    if (const auto* m = std::get_if<Matrix<Real>>(&v)) {
        Matrix<Real> t = *m;
        for (Real& x : t.values) x = tiny;
        return Value(t);
    }
    return v;
}

}  // namespace

TEST_CASE("follow-through: the forged program (tiny early values, no input read) earns nothing on any exercise with steps") {
    // Red team replay (issue 40): on every shipped exercise whose later steps can be computed from a
    // given early one, the first numeric part printed as 1e-300 on every input and every later part
    // computed from it, graded with --follow-through: not one point of follow-through credit.
    int replayed = 0;
    for (const Exercise& e : shipped_exercises().all()) {
        const Values expected = expected_answers(e, e.inputs);
        std::optional<std::string> first;
        for (const AnswerSpec& a : e.answers)
            if (expected.contains(a.name) && ft_tiny_like(expected.at(a.name)).index() == expected.at(a.name).index() &&
                (std::holds_alternative<Real>(expected.at(a.name)) || std::holds_alternative<Vector<Real>>(expected.at(a.name)) ||
                 std::holds_alternative<Matrix<Real>>(expected.at(a.name)))) {
                first = a.name;
                break;
            }
        if (!first) continue;
        const Values early{{*first, ft_tiny_like(expected.at(*first))}};
        std::optional<ExpectedCase> c;
        try {
            c = e.expected->answers_from_given(e, e.inputs, early);
        } catch (const std::exception&) {
            continue;  // a count or an index: 1e-300 is not one, and is refused as such
        }
        if (!c || c->answers.size() < 2) continue;  // no later step computed from it
        Values forged = c->answers;
        forged[*first] = early.at(*first);
        const ExerciseResult r = ft_judged(e, [&](const InputList&) { return forged; });
        double credit = 0;
        for (const PartResult& p : r.parts) credit += p.follow_through.value_or(0);
        INFO(e.id << ": forged from " << *first);
        CHECK(credit == 0);
        ++replayed;
    }
    MESSAGE("replayed on " << replayed << " exercises");
    CHECK(replayed >= 5);
}
