// The tutor by mechanism and by step (issue 34): mistakes tried wherever their mechanism runs,
// wrong parts judged from the student's own earlier numbers, properties any right answer has,
// and honest words (hard-coded only when the numbers never change, no answer given away). The
// property tests feed programs made by the reference to the judge, with no compile.
#include "checker/course/mistake_programs.hpp"
#include "checker/course/validate.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/exercise/variants.hpp"

#include <doctest/doctest.h>

#include <random>

#include "exercise_testing.hpp"

using namespace blockcheck;

namespace {

using testing::shipped_exercises;

const PartResult& part(const ExerciseResult& r, const std::string& name) {
    for (const PartResult& p : r.parts)
        if (p.name == name) return p;
    FAIL("no part " << name);
    return r.parts.front();
}

std::string ids_named(const ExerciseResult& r) {
    std::string ids;
    for (const PartResult& p : r.parts)
        for (const Diagnosis& d : named_diagnoses(p)) ids += p.name + ":" + d.id + " ";
    return ids;
}

std::string notes_of(const PartResult& p) {
    std::string all;
    for (const Text& note : p.notes) all += note.en + "\n";
    return all;
}

// The inputs of the first case (book, variants 1-20) where the mistake changes an answer.
std::optional<InputList> showing_inputs(const Exercise& e, const MistakeCoverage::Row& row) {
    if (row.book) return e.inputs;
    if (!row.variants.empty()) return variant_inputs(e, std::uint64_t(row.variants.front()));
    return std::nullopt;
}

// Some number of `a` differs from `b`'s by more than float's 2^-16 relative.
bool beyond_float(const Value& a, const Value& b) {
    auto numbers = [](const Value& v) {
        if (auto* x = std::get_if<Real>(&v)) return std::vector<Real>{*x};
        if (auto* m = std::get_if<Matrix<Real>>(&v)) return m->values;
        return std::get<Vector<Real>>(v);
    };
    const std::vector<Real> x = numbers(a), y = numbers(b);
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i)
        if (abs(x[i] - y[i]) > abs(y[i]) / 65536) return true;
    return false;
}

bool is_twin(const MistakeCoverage& c, const std::string& id) {
    for (const auto& [a, b] : c.identical)
        if (a == id || b == id) return true;
    return false;
}

}  // namespace

TEST_CASE("tutor: a mistake belongs to its mechanism: the block's switches reach every exercise running the block") {
    const Exercise& e = shipped_exercises().at("llama_block_tiny");
    const ExpectedCase c = expected_answers_and_mistakes(e, e.inputs);
    // never declared for this exercise before: made by the block's switch, as in `compare`
    for (const char* id : {"clockwise_rotation", "sigmoid_for_silu", "eps_ten_times", "gelu_for_silu"})
        CHECK_MESSAGE(c.mistakes.count(id) == 1, id);
    CHECK(c.mistakes.count("integer_two_thirds") == 0);  // a counting slip: the block never counts
    const ExerciseResult r = grade_output(e, e.inputs, synthetic_output(e, c.mistakes.at("clockwise_rotation")), {});
    // named where it is made; the steps after it follow from the student's own residual
    CHECK(ids_named(r) == "residual:clockwise_rotation ");
    CHECK(notes_of(part(r, "output")).find("follows correctly from your own residual") != std::string::npos);
    // RoPE sees only differences: positions counted from 1 change nothing on any input, so the
    // exercise excludes it, with that reason
    CHECK(c.mistakes.count("position_off_by_one") == 0);
    CHECK(e.mistakes_excluded.count("position_off_by_one") == 1);
}

TEST_CASE("tutor: random (exercise, mistake) programs made by the reference are named exactly") {
    std::mt19937_64 draw(34);
    std::vector<std::pair<const Exercise*, MistakeCoverage::Row>> all;
    for (const Exercise& e : shipped_exercises().all())
        for (const MistakeCoverage::Row& row : mistake_coverage(e, 3).rows)
            if (row.book || !row.variants.empty()) all.emplace_back(&e, row);
    REQUIRE(all.size() > 100);
    std::shuffle(all.begin(), all.end(), draw);
    int named = 0, twins = 0;
    for (std::size_t i = 0; i < 40; ++i) {
        const auto& [e, row] = all[i];
        CAPTURE(e->id);
        CAPTURE(row.id);
        const InputList inputs = *showing_inputs(*e, row);
        const ExpectedCase c = expected_answers_and_mistakes(*e, inputs);
        const ExerciseResult r = grade_output(*e, inputs, synthetic_output(*e, c.mistakes.at(row.id)), {});
        const bool twin = is_twin(mistake_coverage(*e, 3), row.id);
        twins += twin;
        for (const PartResult& p : r.parts)
            for (const Diagnosis& d : named_diagnoses(p))
                if (!twin) CHECK(d.id == row.id);
        const std::string ids = ids_named(r);
        named += ids.find(":" + row.id + " ") != std::string::npos;
        if (!twin) CHECK_MESSAGE(ids.find(":" + row.id + " ") != std::string::npos, ids);
    }
    MESSAGE(named << " of 40 named, " << twins << " twins no case tells apart");
}

TEST_CASE("tutor: a random mistake made in one step, the steps before it right, is named on that step alone") {
    std::mt19937_64 draw(3434);
    int checked = 0;
    for (const Exercise& e : shipped_exercises().all()) {
        for (const auto& [step, feeds] : e.steps) {
            if (feeds.empty()) continue;
            CAPTURE(e.id);
            CAPTURE(step);
            const ExpectedCase right = expected_answers_and_mistakes(e, e.inputs);
            Values given;
            for (const std::string& feed : feeds) given.emplace(feed, right.answers.at(feed));
            const auto from_own = e.expected->answers_from_given(e, e.inputs, given);
            REQUIRE(from_own);
            const AnswerSpec& spec = *std::find_if(e.answers.begin(), e.answers.end(), [&](const AnswerSpec& a) { return a.name == step; });
            std::vector<std::string> changing;  // the mistakes that make this step wrong at its precision
            // (and by more than float rounding could: a change of float's size is told as float)
            for (const auto& [id, values] : from_own->mistakes)
                if (!within_tolerance(spec, parse_reading(format_value(values.at(step), 40)), right.answers.at(step)) &&
                    beyond_float(values.at(step), right.answers.at(step)))
                    changing.push_back(id);
            if (changing.empty()) continue;
            const std::string id = changing[draw() % changing.size()];
            CAPTURE(id);
            // the student's program: right up to the step, the mistake there, every later step from it
            Values printed = right.answers;
            printed[step] = from_own->mistakes.at(id).at(step);
            const auto later = e.expected->answers_from_given(e, e.inputs, Values{{step, printed.at(step)}});
            REQUIRE(later);
            bool after = false;
            for (const AnswerSpec& spec : e.answers) {
                if (after) printed[spec.name] = later->answers.at(spec.name);
                after = after || spec.name == step;
            }
            const ExerciseResult r = grade_output(e, e.inputs, synthetic_output(e, printed), {});
            // another mistake may give this step the same value: then the step is named by neither
            std::size_t alike = 0;
            for (const auto& [other, values] : from_own->mistakes)
                alike += within_tolerance(spec, parse_reading(format_value(values.at(step), 40)), printed.at(step));
            for (const PartResult& p : r.parts)
                for (const Diagnosis& d : named_diagnoses(p)) CHECK(d.id == id);
            if (alike == 1) CHECK(part(r, step).diagnosis.has_value());
            ++checked;
        }
    }
    CHECK(checked >= 5);
}

TEST_CASE("tutor: two slips in two steps are each named; a step that follows from the student's own value says so") {
    const Exercise& e = shipped_exercises().at("swiglu_ffn_2d");
    // x = [1, -1], W_gate = I: gate [1, -1]; up [2, 3]; W_down [[1, 0], [1, 1]]
    // silu by ReLU (a slip): [1, 0]; hidden from it: [2, 0]; the FFN with W_down transposed (a second slip)
    const std::string output =
        "gate = [1.000000, -1.000000]\nup = [2.000000, 3.000000]\nsilu = [1.000000, 0.000000]\n"
        "swiglu_hidden = [2.000000, 0.000000]\nswiglu_ffn = [2.000000, 2.000000]\n";
    const ExerciseResult r = grade_output(e, e.inputs, output, {});
    CHECK(part(r, "gate").verdict == Verdict::correct);
    REQUIRE(part(r, "silu").diagnosis);
    CHECK(part(r, "silu").diagnosis->id == "relu_for_silu");
    CHECK_FALSE(part(r, "swiglu_hidden").diagnosis);
    CHECK(notes_of(part(r, "swiglu_hidden")).find("follows correctly from your own silu and up; the slip is earlier") !=
          std::string::npos);
    CHECK(part(r, "swiglu_hidden").follow_through == 1.0);
    CHECK(part(r, "swiglu_hidden").score == 0);  // follow-through is reported, not given, by default
    REQUIRE(part(r, "swiglu_ffn").diagnosis);
    CHECK(part(r, "swiglu_ffn").diagnosis->id == "transposed_weights");
    CHECK(part(r, "swiglu_ffn").diagnosis->message.en.find("computed from your own swiglu_hidden") != std::string::npos);
}

TEST_CASE("tutor: a wrong part no mistake explains is told the property it breaks, never the value") {
    const Exercise& e = shipped_exercises().at("rope_quarter_turn_table");
    ExpectedCase c = expected_answers_and_mistakes(e, e.inputs);
    Values printed = c.answers;
    std::get<Matrix<Real>>(printed.at("rope_query")).values[0] += Real("0.25");  // no slip makes this
    const ExerciseResult r = grade_output(e, e.inputs, synthetic_output(e, printed), {});
    const PartResult& q = part(r, "rope_query");
    CHECK(q.verdict == Verdict::wrong);
    CHECK_FALSE(q.diagnosis);
    CHECK(notes_of(q).find("rope_query: a rotation keeps each pair's length") != std::string::npos);
    CHECK(notes_of(part(r, "rope_key")).empty());  // a right part is told nothing
}

TEST_CASE("tutor: hard-coded only when the printed numbers do not change; otherwise the variant and its command") {
    const Exercise& e = shipped_exercises().at("gqa_groups");
    const ExpectedCase book = expected_answers_and_mistakes(e, e.inputs);
    std::uint64_t seed = 1;  // a variant whose group size differs from the book's
    while (expected_text(expected_answers(e, variant_inputs(e, seed)).at("heads_per_group")) ==
           expected_text(book.answers.at("heads_per_group")))
        ++seed;
    const InputList other = variant_inputs(e, seed);
    ExerciseResult right = grade_output(e, e.inputs, synthetic_output(e, book.answers), {});
    // the same numbers printed on other inputs: copied from the book
    ExerciseResult copied = right;
    ExerciseResult same = grade_output(e, other, synthetic_output(e, book.answers), {});
    same.variant = seed;
    mark_hard_coded(copied, same, other);
    CHECK(part(copied, "heads_per_group").diagnosis.value_or(Diagnosis{}).id == "hard_coded");
    // computed, with an edge-case slip: wrong there with numbers of its own
    Values off = expected_answers_and_mistakes(e, other).answers;
    std::get<Real>(off.at("heads_per_group")) += 1;
    ExerciseResult edge = right;
    ExerciseResult changed = grade_output(e, other, synthetic_output(e, off), {});
    changed.variant = seed;
    mark_hard_coded(edge, changed, other);
    const PartResult& p = part(edge, "heads_per_group");
    CHECK_FALSE(p.diagnosis);
    CHECK(notes_of(p).find("right on the book's inputs, wrong on these: variant " + std::to_string(seed) + " (query_heads = ") !=
          std::string::npos);
    CHECK(notes_of(p).find("`./blockcheck run gqa_groups --variant " + std::to_string(seed) + "`") != std::string::npos);
}

TEST_CASE("tutor: no answer given away: 0 decimal places in integer words, undefined never said of the answer") {
    const Exercise& groups = shipped_exercises().at("gqa_groups");
    const ExerciseResult r = grade_output(groups, groups.inputs, "kv_head_of_query = [0, 5, 1, 3, 7]\n", {});
    const PartResult& p = part(r, "kv_head_of_query");
    CHECK(p.verdict == Verdict::wrong);
    CHECK(p.message.en.find("off by") == std::string::npos);
    CHECK(p.message.en.find("not the number asked for (0 decimal places") != std::string::npos);
    const Exercise& zero = shipped_exercises().at("rms_norm_zero_row");
    const ExerciseResult z = grade_output(zero, zero.inputs, "zero_row_rms_norm = [0, 0]\n", {});
    const PartResult& q = part(z, "zero_row_rms_norm");
    CHECK(q.verdict == Verdict::wrong);
    CHECK(q.message.en.find("undefined") == std::string::npos);
    CHECK(q.message.zh.find("undefined") == std::string::npos);
}

TEST_CASE("tutor: a float note only for a float-sized error: pi typed to eight decimals is not float") {
    const Exercise& e = shipped_exercises().at("rope_quarter_turn_table");
    const ExpectedCase c = expected_answers_and_mistakes(e, e.inputs);
    Values printed = c.answers;
    for (Real& x : std::get<Matrix<Real>>(printed.at("rope_query")).values) x *= Real("1.000000001");
    const ExerciseResult r = grade_output(e, e.inputs, synthetic_output(e, printed), {});
    CHECK(ids_named(r).empty());
    CHECK(r.score == r.max_score);
}
