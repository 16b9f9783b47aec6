// The tutor's proof (issue 34, items 3, 4 and 10): two mistakes made at once are named together
// where no single one explains the program; explanations that fit the book's inputs alike are
// told apart on other inputs, or none is named; random (exercise, mistake, step) programs made by
// the reference, fed to the judge with no compile, are named exactly, and a random pair of
// mistakes is named both or not at all, never with a mistake the program did not make.
#include "checker/course/mistake_programs.hpp"
#include "checker/course/validate.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/exercise/variants.hpp"
#include "solutions/exercise.hpp"

#include <doctest/doctest.h>

#include <random>
#include <set>

#include "exercise_testing.hpp"

using namespace blockcheck;

namespace {

using testing::shipped_exercises;

std::set<std::string> told_ids(const ExerciseResult& r) {
    std::set<std::string> ids;
    for (const PartResult& p : r.parts)
        for (const Diagnosis& d : named_diagnoses(p)) ids.insert(d.id);
    return ids;
}

ExerciseResult judged_made(const Exercise& e, const InputList& inputs, const std::vector<std::string>& made) {
    return judge_made_program(e, inputs, [&](const InputList& in) { return made_program_answers(e, in, made); }, "test/" + e.id);
}

// The program with mistake `id` made in `step` alone: every part before it right, the step from
// the right values of its feeds with the mistake, every later part from the step's value.
Values step_slip_program(const Exercise& e, const InputList& inputs, const std::string& id, const std::string& step,
                    const std::vector<std::string>& feeds) {
    const ExpectedCase right = expected_answers_and_mistakes(e, inputs);
    Values given;
    for (const std::string& feed : feeds) given.emplace(feed, right.answers.at(feed));
    const auto own = e.expected->answers_from_given(e, inputs, given);
    Values printed = right.answers;
    if (!own || !own->mistakes.count(id)) return printed;  // not made here: a right program
    printed[step] = own->mistakes.at(id).at(step);
    const auto later = e.expected->answers_from_given(e, inputs, Values{{step, printed.at(step)}});
    bool after = false;
    for (const AnswerSpec& spec : e.answers) {
        if (after && later) printed[spec.name] = later->answers.at(spec.name);
        after = after || spec.name == step;
    }
    return printed;
}

// The ids no case tells from `id` (MistakeCoverage::identical), and `id`.
std::set<std::string> indistinct_ids(const MistakeCoverage& c, const std::string& id) {
    std::set<std::string> ids{id};
    for (const auto& [a, b] : c.identical)
        if (a == id || b == id) ids.insert({a, b});
    return ids;
}

// Some number of `a` differs from `b`'s by more than float's 2^-16 relative (a smaller change is
// told as float rounding, rightly).
bool differs_beyond_float(const Values& a, const Values& b) {
    auto numbers = [](const Value& v) {
        if (auto* x = std::get_if<Real>(&v)) return std::vector<Real>{*x};
        if (auto* m = std::get_if<Matrix<Real>>(&v)) return m->values;
        if (auto* row = std::get_if<Vector<Real>>(&v)) return *row;
        return std::vector<Real>{};
    };
    for (const auto& [name, value] : a) {
        if (!b.count(name)) continue;
        if (value.index() != b.at(name).index() || numbers(value).empty()) {
            if (!same_answer(value, b.at(name))) return true;
            continue;
        }
        const std::vector<Real> x = numbers(value), y = numbers(b.at(name));
        for (std::size_t i = 0; i < x.size() && i < y.size(); ++i)
            if (abs(x[i] - y[i]) > abs(y[i]) / 65536) return true;
    }
    return false;
}

InputList input_set_to(InputList inputs, const std::string& name, const std::string& value) {
    for (auto& [n, v] : inputs)
        if (n == name) v = value;
    return inputs;
}

}  // namespace

TEST_CASE("two at once: layers forgotten and GiB taken as GB, where no single mistake explains the program, are named both") {
    const Exercise& e = shipped_exercises().at("kv_cache_sizes");
    const Values both = made_program_answers(e, e.inputs, {"layers_forgotten", "gib_as_gb"});
    const ExpectedCase c = expected_answers_and_mistakes(e, e.inputs);
    REQUIRE_FALSE(same_answers(both, c.answers));
    const ExerciseResult r = judged_made(e, e.inputs, {"layers_forgotten", "gib_as_gb"});
    CHECK(told_ids(r) == std::set<std::string>{"layers_forgotten", "gib_as_gb"});
    for (const PartResult& p : r.parts) {
        CAPTURE(p.name);
        if (p.verdict == Verdict::wrong) CHECK(!named_diagnoses(p).empty());
    }
    // each alone is still one mistake, named alone
    CHECK(told_ids(judged_made(e, e.inputs, {"gib_as_gb"})) == std::set<std::string>{"gib_as_gb"});
}

TEST_CASE("two at once: with no steps to judge them one by one, the pair is named together in `diagnoses`") {
    Exercise e = shipped_exercises().at("kv_cache_sizes");
    e.steps.clear();
    const Values made = made_program_answers(e, e.inputs, {"layers_forgotten", "gib_as_gb"});
    const ExerciseResult r = grade_output(e, e.inputs, synthetic_output(e, made), {});
    for (const PartResult& p : r.parts) {
        CAPTURE(p.name);
        CHECK_FALSE(p.diagnosis);  // never one of the two alone
        if (p.verdict == Verdict::wrong) {
            REQUIRE(p.diagnoses.size() == 2);
            CHECK(p.diagnoses[0].id == "layers_forgotten");
            CHECK(p.diagnoses[1].id == "gib_as_gb");
        }
    }
    // the program making both: no single mistake gives its answers
    const ExpectedCase c = expected_answers_and_mistakes(e, e.inputs);
    CHECK(std::none_of(c.mistakes.begin(), c.mistakes.end(), [&](const auto& m) { return same_answers(made, m.second); }));
}

TEST_CASE("two at once: the reference makes a pair only when it consults both switches") {
    const Exercise& e = shipped_exercises().at("position_interpolation");
    const Values inputs = parse_inputs(input_text(e.inputs), "inputs");
    // the factor is inverted or rounded down: one choice, never both
    CHECK(reference_pair_answers(e.id, inputs, {{"factor_inverted", "integer_factor"}}).empty());
    const auto made = reference_pair_answers(e.id, inputs, {{"angle_not_scaled", "factor_inverted"}});
    REQUIRE(made.size() == 1);
    CHECK(made.begin()->first == MistakePair{"angle_not_scaled", "factor_inverted"});
}

TEST_CASE("confirmation: two mistakes alike on the book's inputs are told apart by the variants, or neither is named") {
    Exercise e = shipped_exercises().at("kv_cache_sizes");
    e.inputs = input_set_to(e.inputs, "layers", "2");  // one layer forgotten of two: the bytes halved, as the factor 2
    for (const std::string id : {"layers_forgotten", "kv_factor_forgotten"}) {
        CAPTURE(id);
        const Values made = made_program_answers(e, e.inputs, {id});
        const ExerciseResult book = grade_output(e, e.inputs, synthetic_output(e, made), {});
        CHECK(told_ids(book).empty());  // alike here: candidates, named on no part
        REQUIRE(book.candidates.size() == 2);
        const ExerciseResult r = judged_made(e, e.inputs, {id});
        CHECK(told_ids(r) == std::set<std::string>{id});
        CHECK(r.candidates.empty());
        // the same program and student: the same inputs and the same words (shards and resumes agree)
        const ExerciseResult again = judged_made(e, e.inputs, {id});
        for (std::size_t i = 0; i < r.parts.size(); ++i)
            CHECK(named_diagnoses(again.parts[i]).size() == named_diagnoses(r.parts[i]).size());
    }
    e.variants = nlohmann::ordered_json::object();  // nothing to tell them apart with: neither is named
    CHECK(told_ids(judged_made(e, e.inputs, {"layers_forgotten"})).empty());
}

TEST_CASE("confirmation: a named mistake the program does not repeat on other inputs is dropped") {
    const Exercise& e = shipped_exercises().at("kv_cache_sizes");
    const Values book = made_program_answers(e, e.inputs, {"layers_forgotten"});
    // the book's numbers of the slip printed whatever the inputs: no mistake reproduces them
    ExerciseResult r = grade_output(e, e.inputs, synthetic_output(e, book), {});
    REQUIRE(told_ids(r) == std::set<std::string>{"layers_forgotten"});
    confirm_diagnoses(e, r, "test/copied",
                      [&](const InputList& other) { return grade_output(e, other, synthetic_output(e, book), {}); });
    CHECK(told_ids(r).empty());
}

TEST_CASE("tutor property: random (exercise, mistake, step) programs made by the reference are named exactly") {
    std::mt19937_64 draw(1034);
    struct Row {
        const Exercise* e;
        std::string id;
        InputList inputs;
    };
    std::vector<Row> rows;
    for (const Exercise& e : shipped_exercises().all())
        for (const MistakeCoverage::Row& row : mistake_coverage(e, 3).rows)
            if (row.book || !row.variants.empty())
                rows.push_back({&e, row.id, row.book ? e.inputs : variant_inputs(e, std::uint64_t(row.variants.front()))});
    REQUIRE(rows.size() > 100);
    int named = 0, by_step = 0;
    constexpr int draws = 200;
    for (int i = 0; i < draws; ++i) {
        const Row& row = rows[draw() % rows.size()];
        const Exercise& e = *row.e;
        // the whole program, or (one draw in two) a step with feeds where the mistake shows, made there alone
        std::string step;
        std::vector<std::string> feeds;
        const Values right = expected_answers(e, row.inputs);
        const bool in_step = draw() % 2;
        for (std::size_t k = 0, first = draw(); in_step && k < e.steps.size(); ++k) {
            const auto& [name, in] = e.steps[(first + k) % e.steps.size()];
            if (!in.empty() && differs_beyond_float(step_slip_program(e, row.inputs, row.id, name, in), right)) {
                std::tie(step, feeds) = std::tie(name, in);
                break;
            }
        }
        CAPTURE(e.id);
        CAPTURE(row.id);
        CAPTURE(step);
        auto make = [&](const InputList& in) {
            return step.empty() ? made_program_answers(e, in, {row.id}) : step_slip_program(e, in, row.id, step, feeds);
        };
        if (!differs_beyond_float(make(row.inputs), right)) continue;  // a change of float's size: told as float
        const ExerciseResult r = judge_made_program(e, row.inputs, make, "test/" + e.id);
        const std::set<std::string> told = told_ids(r), allowed = indistinct_ids(mistake_coverage(e, 3), row.id);
        for (const std::string& id : told) CHECK_MESSAGE(allowed.count(id), id);  // never a mistake not made
        named += told.count(row.id) > 0;
        by_step += !step.empty();
        if (step.empty() && allowed.size() == 1) CHECK(told == std::set<std::string>{row.id});
    }
    MESSAGE(named << " of " << draws << " named, " << by_step << " made in one step");
    CHECK(named >= draws * 3 / 4);
}

TEST_CASE("tutor property: a random pair of mistakes where no single one fits is named both, or none, never one not made") {
    std::mt19937_64 draw(2034);
    std::vector<std::pair<const Exercise*, std::pair<std::string, std::string>>> pairs;
    for (const Exercise& e : shipped_exercises().all()) {
        std::vector<std::string> shown;
        for (const MistakeCoverage::Row& row : mistake_coverage(e, 3).rows)
            if (row.book) shown.push_back(row.id);
        for (std::size_t i = 0; i < shown.size(); ++i)
            for (std::size_t j = i + 1; j < shown.size(); ++j) pairs.push_back({&e, {shown[i], shown[j]}});
    }
    REQUIRE(pairs.size() > 100);
    int both = 0, none = 0, tried = 0;
    for (int i = 0; i < 40; ++i) {
        const auto& [e, pair] = pairs[draw() % pairs.size()];
        CAPTURE(e->id);
        CAPTURE(pair.first);
        CAPTURE(pair.second);
        const ExpectedCase c = expected_answers_and_mistakes(*e, e->inputs);
        const Values made = made_program_answers(*e, e->inputs, {pair.first, pair.second});
        // where a single mistake gives the same answers, the pair is that mistake
        if (std::any_of(c.mistakes.begin(), c.mistakes.end(), [&](const auto& m) { return same_answers(made, m.second); }))
            continue;
        ++tried;
        const std::set<std::string> told = told_ids(judged_made(*e, e->inputs, {pair.first, pair.second}));
        for (const std::string& id : told) CHECK_MESSAGE((id == pair.first || id == pair.second), id);
        both += told.size() == 2;
        none += told.empty();
    }
    MESSAGE(both << " of " << tried << " pairs named both, " << none << " none");
    CHECK(both * 3 >= tried);
}

TEST_CASE("validate's proof: every shown mistake of kv_cache_sizes named right, a pair named both, the outcomes told apart") {
    const Exercise& e = shipped_exercises().at("kv_cache_sizes");
    const MistakeProof proof = mistake_proof(e, 3);
    REQUIRE(proof.singles.size() == 3);
    for (const auto& p : proof.singles) CHECK(proof_outcome(p) == ProofOutcome::right);
    CHECK(std::any_of(proof.pairs.begin(), proof.pairs.end(), [](const auto& p) { return proof_outcome(p) == ProofOutcome::right; }));
    using P = MistakeProof::Program;
    CHECK(proof_outcome(P{{"a", "b"}, "", {"b", "a"}, false}) == ProofOutcome::right);
    CHECK(proof_outcome(P{{"a", "b"}, "", {"a"}, false}) == ProofOutcome::partly);
    CHECK(proof_outcome(P{{"a", "b"}, "", {"a", "c"}, false}) == ProofOutcome::wrong);
    CHECK(proof_outcome(P{{"a"}, "", {"float_precision"}, false}) == ProofOutcome::none);
    const std::string summary = proof_summary({&e}, 3).en;
    CHECK(summary.find("3 single: 3 named right (coverage 100%), 0 named wrong (precision 100%)") != std::string::npos);
}
