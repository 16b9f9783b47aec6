// Insight traces a shared wrong answer no mistake explains (issue 34, item 8): on a small
// synthetic class of swiglu_ffn_2d, the first step where the students' numbers depart from what
// their own earlier values give, and the catalogue mistake that comes closest.
#include "checker/insight/insight_trace.hpp"
#include "checker/insight/insight_write.hpp"
#include "checker/exercise/protocol.hpp"
#include "exercise_testing.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

using namespace blockcheck;
using blockcheck::testing::shipped_exercises;

namespace {

// Every number of a vector times `factor`.
Value scaled(const Value& v, const char* factor) {
    Vector<Real> out = std::get<Vector<Real>>(v);
    for (Real& x : out) x *= Real(factor);
    return out;
}

Value sum(const Value& a, const Value& b) {
    Vector<Real> out = std::get<Vector<Real>>(a);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] += std::get<Vector<Real>>(b)[i];
    return out;
}

// A student of swiglu_ffn_2d printing `values` (17 digits), each part right or wrong against the reference.
StudentRecord student(const std::string& id, const Exercise& e, const Values& values) {
    const Values right = e.expected->answers(e, e.inputs);
    ExerciseRecord r{.id = e.id, .status = "done", .max_score = e.max_score()};
    for (const AnswerSpec& a : e.answers) {
        const Value& mine = values.count(a.name) ? values.at(a.name) : right.at(a.name);
        const std::string text = format_value(mine, 17);
        const bool ok = within_tolerance(a, parse_reading(text), right.at(a.name));
        PartRecord p{a.name, ok ? "correct" : "wrong", ok ? a.points : 0, a.points, ok ? "" : "wrong"};
        if (!ok) p.given = text, r.status = "failing";
        r.score += p.score;
        r.parts.push_back(p);
    }
    StudentRecord s{.student = id, .submission = id};
    s.score = r.score, s.max_score = r.max_score;
    s.exercises.push_back(r);
    return s;
}

const SharedAnswer* group(const Insight& in, const std::string& part, const std::string& first) {
    for (const SharedAnswer& a : in.shared_answers)
        if (a.part == part && a.students.front() == first) return &a;
    return nullptr;
}

}  // namespace

TEST_CASE("insight: a shared wrong answer's first departing step and its closest catalogue mistake") {
    const ExerciseSet& set = shipped_exercises();
    const Exercise& e = set.at("swiglu_ffn_2d");
    const ExpectedCase book = e.expected->answers_and_mistakes(e, e.inputs);
    REQUIRE(book.mistakes.count("gelu_for_silu"));
    // t00-t02: a GELU near the catalogue's (its silu 1.001 times gelu_for_silu's, as a tanh
    // approximation would be), the later steps computed right from it: no mistake explains it.
    const Value silu = scaled(book.mistakes.at("gelu_for_silu").at("silu"), "1.001");
    const ExpectedCase after_silu = *e.expected->answers_from_given(e, e.inputs, {{"silu", silu}});
    // t03-t04: silu plus up where the step multiplies them, the last step right from it.
    const Value hidden = sum(book.answers.at("silu"), book.answers.at("up"));
    const ExpectedCase after_hidden = *e.expected->answers_from_given(e, e.inputs, {{"swiglu_hidden", hidden}});
    std::vector<StudentRecord> students;
    for (int i = 0; i < 3; ++i)
        students.push_back(student(fmt::format("t{:02}", i), e,
                                   {{"silu", silu}, {"swiglu_hidden", after_silu.answers.at("swiglu_hidden")},
                                    {"swiglu_ffn", after_silu.answers.at("swiglu_ffn")}}));
    for (int i = 3; i < 5; ++i)
        students.push_back(student(fmt::format("t{:02}", i), e, {{"swiglu_hidden", hidden}, {"swiglu_ffn", after_hidden.answers.at("swiglu_ffn")}}));
    students.push_back(student("t05", e, {}));
    REQUIRE(students[0].exercises[0].parts[2].verdict == "wrong");  // silu: not within the part's precision of GELU

    const Insight in = compute_insight(set.only_exercises({{"swiglu_ffn_2d", std::nullopt, "test"}}), students);
    REQUIRE(in.shared_answers.size() == 5);  // silu, swiglu_hidden and swiglu_ffn of t00-t02; the last two of t03-t04

    // The GELU group: departs at silu, where it is a thousandth from gelu_for_silu, both on the
    // book's inputs and from the students' own gate.
    const SharedAnswer* g = group(in, "silu", "t00");
    REQUIRE(g);
    CHECK(g->departs_at == "silu");
    CHECK(g->departing == 3);
    REQUIRE(!g->closest.empty());
    CHECK(g->closest[0].mistake == "gelu_for_silu");
    CHECK(g->closest[0].distance == doctest::Approx(1e-3).epsilon(1e-3));
    CHECK(g->closest.size() <= closest_listed);
    CHECK(g->closest.back().distance > 1e-2);  // the others are far
    REQUIRE(!g->closest_at_step.empty());
    CHECK(g->closest_at_step[0].mistake == "gelu_for_silu");
    CHECK(g->right_distance.value() > g->closest[0].distance);
    // Its last part follows from silu: the group of swiglu_ffn departs at silu too.
    const SharedAnswer* last = group(in, "swiglu_ffn", "t00");
    REQUIRE(last);
    CHECK(last->departs_at == "silu");
    CHECK(last->closest_at_step[0].mistake == "gelu_for_silu");

    // The sum group: silu and up right, so it departs at swiglu_hidden, for both parts it shares.
    for (const char* part : {"swiglu_hidden", "swiglu_ffn"}) {
        CAPTURE(part);
        const SharedAnswer* s = group(in, part, "t03");
        REQUIRE(s);
        CHECK(s->departs_at == "swiglu_hidden");
        CHECK(s->departing == 2);
    }

    // In the files and the terminal.
    const std::string csv = insight_csv(in);
    CHECK(csv.find(",t00; t01; t02,silu (3 of 3),gelu_for_silu 0.001;") != std::string::npos);
    const nlohmann::json json = insight_json(in);
    CHECK(json.at("shared_answers")[0].at("departs_at") == "silu");
    CHECK(json.at("shared_answers")[0].at("closest")[0].at("mistake") == "gelu_for_silu");
    const std::string findings = insight_findings(json, Lang::en);
    CHECK(findings.find("swiglu_ffn_2d.silu: 3 students; departs at silu (3 of 3); nearest: gelu_for_silu 0.001, ") != std::string::npos);
    CHECK(findings.find("at step silu, from their own earlier values: gelu_for_silu 0.001") != std::string::npos);
}

TEST_CASE("insight: the relative distance of two values") {
    CHECK(*relative_distance(Value(Real(1.5)), Value(Real(1))) == doctest::Approx(0.5));
    CHECK(*relative_distance(Value(Vector<Real>{Real(3), Real(4)}), Value(Vector<Real>{Real(0), Real(0)})) == doctest::Approx(5));
    CHECK(*relative_distance(Value(Vector<Real>{Real(1), Real(1)}), Value(Vector<Real>{Real(1), Real(2)})) ==
          doctest::Approx(1 / std::sqrt(5.0)));
    CHECK_FALSE(relative_distance(Value(Vector<Real>{Real(1)}), Value(Vector<Real>{Real(1), Real(2)})).has_value());
    CHECK_FALSE(relative_distance(Value(true), Value(Real(1))).has_value());
}
