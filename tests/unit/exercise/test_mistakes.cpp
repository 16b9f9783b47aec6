// Mistake diagnosis end to end: every program under tests/mistakes/<id>/ is written as a student
// would, in double, with exactly one classic mistake, and records what it must get:
//     // expect: <exercise> <part> <mistake id>     (part "*": every part right, some with the id)
//     // inputs: book | variant <seed> | <name> = <value>
// Most are a slip (<exercise>.slip): the honest program of tests/solved/ with the lines that make
// the mistake changed, so the one thing changed is what the file shows:
//     // from: tests/solved/<chapter>/<exercise>.cpp
//     // replace: <a run of lines, compared without their indentation, found exactly once>
//     // with: <the lines that take its place, verbatim>           (or "// with nothing")
// A mistake that is a different program altogether (hard_coded) is a whole <exercise>.cpp.
// An honest double program (tests/solved/) gets no diagnosis and full marks, on the book's
// inputs and on a variant.
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/exercise/variants.hpp"
#include "solutions/exercise.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

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

struct Expectation {
    std::string exercise, part, mistake, inputs;
};

Expectation read_expectation(const fs::path& file) {
    std::ifstream in(file);
    Expectation e;
    for (std::string line; std::getline(in, line) && line.starts_with("//");) {
        if (line.starts_with("// expect: ")) std::istringstream(line.substr(11)) >> e.exercise >> e.part >> e.mistake;
        if (line.starts_with("// inputs: ")) e.inputs = line.substr(11);
    }
    return e;
}

InputList inputs_for(const Exercise& e, const std::string& spec) {
    if (spec == "book") return e.inputs;
    if (spec.starts_with("variant ")) return variant_inputs(e, std::stoull(spec.substr(8)));
    const std::size_t eq = spec.find(" = ");
    REQUIRE_MESSAGE(eq != std::string::npos, "inputs: " << spec);
    InputList inputs = e.inputs;
    for (auto& [name, value] : inputs)
        if (name == spec.substr(0, eq)) value = spec.substr(eq + 3);
    return inputs;
}

std::string trimmed(const std::string& line) {
    const auto first = line.find_first_not_of(" \t"), last = line.find_last_not_of(" \t");
    return first == std::string::npos ? "" : line.substr(first, last - first + 1);
}

std::vector<std::string> lines_of(const fs::path& file) {
    std::ifstream in(file);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// The program a slip file stands for: its solved program with each replace block, in order,
// swapped for its with lines. Each block must match exactly one run of lines.
std::string apply_slip(const fs::path& slip) {
    std::vector<std::string> program;
    std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> blocks;
    bool after_with = true;  // a replace line after with lines starts the next block
    for (const std::string& line : lines_of(slip)) {
        if (line.starts_with("// from: ")) program = lines_of(repository() / line.substr(9));
        if (line.starts_with("// replace: ")) {
            if (after_with) blocks.emplace_back();
            after_with = false;
            blocks.back().first.push_back(trimmed(line.substr(12)));
        } else if (line.starts_with("// with: ") || line == "// with nothing") {
            REQUIRE_MESSAGE(!blocks.empty(), slip.string() << ": \"// with\" before any \"// replace:\"");
            if (line != "// with nothing") blocks.back().second.push_back(line.substr(9));
            after_with = true;
        }
    }
    REQUIRE_MESSAGE(!program.empty(), slip.string() << ": no \"// from:\" program");
    for (const auto& [replace, with] : blocks) {
        std::vector<std::size_t> hits;
        for (std::size_t i = 0; i + replace.size() <= program.size(); ++i) {
            bool same = true;
            for (std::size_t k = 0; same && k < replace.size(); ++k) same = trimmed(program[i + k]) == replace[k];
            if (same) hits.push_back(i);
        }
        REQUIRE_MESSAGE(hits.size() == 1, slip.string() << ": \"" << replace.front() << "\" found " << hits.size() << " times");
        program.erase(program.begin() + long(hits[0]), program.begin() + long(hits[0] + replace.size()));
        program.insert(program.begin() + long(hits[0]), with.begin(), with.end());
    }
    std::string text;
    for (const std::string& line : program) text += line + "\n";
    return text;
}

// The program to grade: a whole program as it is, a slip written out under the exercise's file name.
fs::path program_for(const fs::path& file, const Exercise& e, const fs::path& scratch) {
    if (file.extension() != ".slip") return file;
    const fs::path program = scratch / file.parent_path().filename() / e.file_name();
    fs::create_directories(program.parent_path());
    std::ofstream(program) << apply_slip(file);
    return program;
}

// A general claim's value as text: true/false or the choice's word.
std::string to_string_for_test(const Value& v) { return format_value(v, 20); }

}  // namespace

TEST_CASE("mistakes: every mistake program gets exactly its diagnosis") {
    std::set<std::string> covered;
    testing::TempDir scratch("mistake-programs");
    for (const auto& dir : fs::directory_iterator(repository() / "tests/mistakes"))
        for (const auto& file : fs::directory_iterator(dir.path())) {
            const Expectation want = read_expectation(file.path());
            CAPTURE(file.path().string());
            REQUIRE(dir.path().filename() == want.mistake);
            const Exercise& e = shipped_exercises().at(want.exercise);
            const fs::path program = program_for(file.path(), e, scratch.path);
            ExerciseResult r = check_program(e, program, inputs_for(e, want.inputs), settings(), {});
            if (want.mistake == "hard_coded")  // check's quiet probe, as the workspace runs it
                mark_hard_coded(r, check_program(e, program, variant_inputs(e, variant_seed("hard_coded_probe", e.id)),
                                                 settings(), {}));
            bool found = false;
            for (const PartResult& p : r.parts) {
                CAPTURE(p.name);
                CAPTURE(p.message.en);
                if (p.diagnosis) CHECK(p.diagnosis->id == want.mistake);
                if (p.diagnosis && (want.part == "*" || p.name == want.part)) found = true;
                if (want.part == "*") CHECK(p.verdict == Verdict::correct);
                if (p.name == want.part && want.mistake != "hard_coded") CHECK(p.verdict == Verdict::wrong);
            }
            CHECK(found);
            if (want.part == "*") CHECK(r.score == r.max_score);
            covered.insert(want.mistake);
        }
    // every generic mistake but hard_coded's variant-only cousins, and every mechanism mistake some
    // exercise computes, has its program
    for (const std::string& id : generic_mistakes()) CHECK_MESSAGE(covered.count(id), id);
    for (const Exercise& e : shipped_exercises().all())
        for (const std::string& id : e.mistakes) CHECK_MESSAGE(covered.count(id), id << " (declared by " << e.id << ")");
}

TEST_CASE("mistakes: an honest double program gets full marks and no diagnosis, on the book's inputs and a variant") {
    for (const Exercise& e : shipped_exercises().all()) {
        const fs::path solved = repository() / "tests/solved" / e.chapter / e.file_name();
        CAPTURE(e.id);
        for (const InputList& inputs : {e.inputs, variant_inputs(e, 11)}) {
            const ExerciseResult r = check_program(e, solved, inputs, settings(), {});
            CHECK(r.score == r.max_score);
            for (const PartResult& p : r.parts) {
                CAPTURE(p.name);
                CAPTURE(p.message.en);
                CHECK_FALSE(p.diagnosis);
                CHECK_FALSE(p.inexact);
            }
        }
    }
}

TEST_CASE("mistakes: every mistake an exercise declares is computed by its reference on the book's inputs") {
    for (const Exercise& e : shipped_exercises().all()) {
        const ExpectedCase answers = expected_answers_and_mistakes(e, e.inputs);
        for (const std::string& id : e.mistakes) {
            if (derived_from_expected(id)) continue;
            const bool computed = std::any_of(answers.mistakes.begin(), answers.mistakes.end(),
                                              [&](const auto& m) { return mistake_id(m.first) == id; });
            CHECK_MESSAGE(computed, id << " declared by " << e.id << " but not computed");
        }
        for (const auto& [id, values] : answers.mistakes) CHECK_NOTHROW(mistake_message(id));
    }
    for (const MistakeEntry& m : mistake_catalogue()) CHECK_NOTHROW(mistake_message(m.id));
}

TEST_CASE("variants keep each answer's meaning: 500 seeds of every reference stay defined, finite, of their kind, "
          "and general claims never change") {
    for (const Exercise& e : shipped_exercises().all()) {
        CAPTURE(e.id);
        const Values book = expected_answers(e, e.inputs);
        const int seeds = e.variants.empty() ? 1 : 500;
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
