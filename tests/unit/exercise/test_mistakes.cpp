// Mistake diagnosis end to end: the student-style programs of tests/mistakes/ (their format is
// checker/course/mistake_programs.hpp). `blockcheck validate` compiles and grades every one of
// them; the suite grades a sample: one program for each mechanism and for the generic mistakes
// only a real program makes (float arithmetic, a 32-bit int, printed constants); every declared
// mistake's diagnosis is also checked on its own answers (test_mistake_pairs.cpp). It checks that
// every program is well formed and every mistake has one.
// An honest double program (tests/solved/) gets no diagnosis and full marks, on the book's
// inputs and on a variant.
#include "checker/course/mistake_programs.hpp"
#include "checker/course/validate.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/exercise/variants.hpp"
#include "solutions/exercise.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <set>

#include "temp_dir.hpp"

#include "exercise_testing.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

using testing::repository;
using testing::shipped_exercises;

RunSettings settings() {
    static testing::TempDir cache("mistakes-cache");
    RunSettings s;
    s.include_dir = repository() / "chapters";
    s.cache_dir = cache.path;
    return s;
}

// A general claim's value as text: true/false or the choice's word.
std::string to_string_for_test(const Value& v) { return format_value(v, 20); }

// The mistake's mechanism, "generic" for the ones read off the inputs or the expected value.
std::string mechanism_of(const std::string& id) {
    const MistakeEntry* entry = find_mistake(id);
    return entry ? entry->mechanism : "";
}

}  // namespace

TEST_CASE("mistakes: every program of tests/mistakes/ is well formed, and every mistake has one") {
    std::set<std::string> covered;
    for (const MistakeProgram& p : mistake_programs(repository())) {
        CAPTURE(p.file.string());
        CHECK(p.file.parent_path().filename() == p.mistake);
        const Exercise& e = shipped_exercises().at(p.exercise);
        if (p.file.extension() == ".slip") CHECK_NOTHROW(slip_program_text(repository(), p.file));
        // a mechanism mistake is one its exercise's reference makes; a generic one is checked everywhere
        if (mechanism_of(p.mistake) != "generic") {
            const auto rows = mistake_coverage(e, 3).rows;
            CHECK(std::any_of(rows.begin(), rows.end(), [&](const MistakeCoverage::Row& r) { return r.id == p.mistake; }));
        }
        covered.insert(p.mistake);
    }
    for (const std::string& id : generic_mistakes()) CHECK_MESSAGE(covered.count(id), id);
    // every student's slip (not a porting one) that some exercise shows has a program
    for (const Exercise& e : shipped_exercises().all())
        for (const MistakeCoverage::Row& row : mistake_coverage(e, 3).rows)
            if (!find_mistake(row.id)->port && row.book) CHECK_MESSAGE(covered.count(row.id), row.id << " (shown by " << e.id << ")");
}

TEST_CASE("mistakes: a sample of the mistake programs (each mechanism, float, int32, hard-coded) gets exactly its diagnosis") {
    testing::TempDir scratch("mistake-programs");
    const std::set<std::string> generic_sample = {"float_precision", "int32_wrap", "hard_coded"};
    std::set<std::string> taken;  // generic ids and mechanisms already graded
    int graded = 0;
    for (const MistakeProgram& p : mistake_programs(repository())) {
        const std::string mechanism = mechanism_of(p.mistake);
        if (mechanism == "generic" && !generic_sample.count(p.mistake)) continue;
        if (!taken.insert(mechanism == "generic" ? p.mistake : mechanism).second) continue;
        CAPTURE(p.file.string());
        const auto faults = mistake_program_faults(repository(), shipped_exercises().at(p.exercise), p, settings(), scratch.path);
        for (const std::string& fault : faults) FAIL_CHECK(fault);
        ++graded;
    }
    CHECK(graded >= 12);
}

namespace {

// A number as a double program prints it through the header's answer(): 17 significant digits,
// in scientific notation (so an exact 1 is written 1.0000000000000000e+00, never "1").
std::string honest_number(const Real& x) { return fmt::format("{:.16e}", x.convert_to<double>()); }

// The right answers as an honest double program prints them: every number rounded to a double.
std::string honest_output(const Exercise& e, const Values& values) {
    std::string out;
    for (const AnswerSpec& spec : e.answers) {
        const Value& v = values.at(spec.name);
        std::string text = format_value(v, spec.kind == AnswerKind::integer ? 40 : 20);
        if (spec.kind != AnswerKind::integer) {
            if (auto* x = std::get_if<Real>(&v)) text = honest_number(*x);
            if (auto* vec = std::get_if<Vector<Real>>(&v)) {
                text = "[";
                for (std::size_t i = 0; i < vec->size(); ++i) text += (i ? ", " : "") + honest_number((*vec)[i]);
                text += "]";
            }
            if (auto* m = std::get_if<Matrix<Real>>(&v)) {
                text = "[";
                for (std::size_t r = 0; r < m->rows; ++r) {
                    text += r ? ", [" : "[";
                    for (std::size_t c = 0; c < m->cols; ++c) text += (c ? ", " : "") + honest_number((*m)(r, c));
                    text += "]";
                }
                text += "]";
            }
        }
        out += spec.name + " = " + text + "\n";
    }
    return out;
}

void check_honest(const ExerciseResult& r) {
    CHECK(r.score == r.max_score);
    for (const PartResult& p : r.parts) {
        CAPTURE(p.name);
        CAPTURE(p.message.en);
        CHECK_FALSE(p.diagnosis);
        CHECK_FALSE(p.inexact);
    }
}

}  // namespace

TEST_CASE("mistakes: the right answers printed as a double program prints them get full marks and no diagnosis, "
          "on every exercise's book inputs and a variant") {
    for (const Exercise& e : shipped_exercises().all()) {
        CAPTURE(e.id);
        for (const InputList& inputs : {e.inputs, variant_inputs(e, 11)})
            check_honest(grade_output(e, inputs, honest_output(e, expected_answers(e, inputs)), {}));
    }
}

TEST_CASE("mistakes: a sample of the honest double programs (every third exercise) gets full marks and no diagnosis, "
          "on the book's inputs and a variant (validate runs every one on 50 variants)") {
    std::size_t index = 0;
    for (const Exercise& e : shipped_exercises().all()) {
        if (index++ % 3 != 0) continue;
        const fs::path solved = repository() / "tests/solved" / e.chapter / e.file_name();
        CAPTURE(e.id);
        for (const InputList& inputs : {e.inputs, variant_inputs(e, 11)}) check_honest(judge_program(e, {solved, {}, inputs, std::nullopt, std::nullopt}, settings(), {}));
    }
}

TEST_CASE("mistakes: every student's slip of the catalogue is made by some exercise's reference, with no declaration") {
    std::set<std::string> made;
    for (const Exercise& e : shipped_exercises().all()) {
        const ExpectedCase answers = expected_answers_and_mistakes(e, e.inputs);
        for (const auto& [id, values] : answers.mistakes) {
            CHECK_NOTHROW(mistake_message(id));
            made.insert(mistake_id(id));
        }
    }
    for (const MistakeEntry& m : mistake_catalogue()) {
        CHECK_NOTHROW(mistake_message(m.id));
        if (m.made_by == "reference" && !m.port) CHECK_MESSAGE(made.count(m.id), m.id << " is made by no exercise");
    }
}

TEST_CASE("variants keep each answer's meaning: 40 seeds of every reference stay defined, finite, of their kind, "
          "and general claims never change (validate checks 500)") {
    for (const Exercise& e : shipped_exercises().all()) {
        CAPTURE(e.id);
        const Values book = expected_answers(e, e.inputs);
        const int seeds = e.variants.empty() ? 1 : 40;  // validate checks 500
        for (int seed = 1; seed <= seeds; ++seed) {
            CAPTURE(seed);
            Values answers;
            REQUIRE_NOTHROW(answers = expected_answers(e, variant_inputs(e, std::uint64_t(seed))));
            for (const AnswerSpec& spec : e.answers) {
                CAPTURE(spec.name);
                auto it = answers.find(spec.name);
                REQUIRE(it != answers.end());
                const auto fault = reference_fault(spec, it->second);
                CHECK_MESSAGE(!fault, (fault ? fault->en : ""));
                // undefined only where the book's own answer is undefined (the zero row)
                if (!std::holds_alternative<Undefined>(book.at(spec.name))) CHECK_FALSE(std::holds_alternative<Undefined>(it->second));
                if (spec.general) {
                    CHECK(to_string_for_test(it->second) == to_string_for_test(book.at(spec.name)));
                }
            }
        }
    }
}

TEST_CASE("the student edition's data carries the mistakes' answers: what release writes, the data provider reads") {
    const Exercise* chosen = nullptr;
    ExpectedCase full;
    for (const Exercise& e : shipped_exercises().all()) {
        full = expected_answers_and_mistakes(e, e.inputs);
        if (!full.mistakes.empty()) {
            chosen = &e;
            break;
        }
    }
    REQUIRE(chosen != nullptr);
    testing::TempDir root("expected-mistakes");
    const fs::path dir = root.path / "data" / "expected";
    fs::create_directories(dir / chosen->chapter);
    std::ofstream(dir / "edition.json") << R"({"digits": 50, "variants": [1]})";
    nlohmann::ordered_json file = {{"id", chosen->id}, {"digits", expected_digits}, {"cases", nlohmann::ordered_json::array()}};
    file["cases"].push_back(expected_case(std::nullopt, chosen->inputs, full));
    std::ofstream(dir / chosen->chapter / (chosen->id + ".json")) << file.dump(2);

    const ExpectedCase read = answers_from_data(root.path)->answers_and_mistakes(*chosen, chosen->inputs);
    auto texts = [](const Values& values) {
        std::map<std::string, std::string> out;
        for (const auto& [name, value] : values) out[name] = expected_text(value);
        return out;
    };
    CHECK(texts(read.answers) == texts(full.answers));
    REQUIRE(read.mistakes.size() == full.mistakes.size());
    for (const auto& [id, values] : full.mistakes) {
        CAPTURE(id);
        REQUIRE(read.mistakes.count(id) == 1);
        CHECK(texts(read.mistakes.at(id)) == texts(values));
    }
}
