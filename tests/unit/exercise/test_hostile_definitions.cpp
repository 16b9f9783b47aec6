// Crafted exercise definitions (tests/fuzz/corpus/exercise_loader/crafted-*.json, also the fuzz
// seeds) are refused when loaded, with the file and the field named; and the comparison never
// indexes a reference without elements.
#include "checker/common/json_exact.hpp"
#include "checker/exercise/answer_compare.hpp"
#include "checker/exercise/exercise_set.hpp"
#include "checker/exercise/protocol.hpp"
#include "checker/exercise/variants.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "temp_dir.hpp"
#include "source_tree.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

using testing::repository;

// Loads one definition alone (beside chapter 25's chapter.json); returns the error's message.
std::string load_error(const fs::path& definition) {
    testing::TempDir dir("crafted");
    const fs::path chapter = dir.path / "data/exercises/ch25";
    fs::create_directories(chapter);
    fs::copy_file(repository() / "data/exercises/ch25/chapter.json", chapter / "chapter.json");
    const auto json = read_json_exact(definition);
    fs::copy_file(definition, chapter / (json["id"].get<std::string>() + ".json"));
    try {
        ExerciseSet::load(dir.path);
    } catch (const InputFileError& e) {
        return e.what();
    }
    return "(loaded)";
}

}  // namespace

TEST_CASE("a crafted definition is refused when loaded, naming the file and the field") {
    // crafted-<name>.json -> the field its message must name, after "<id>.json"
    const std::map<std::string, std::string> expected = {
        {"multiple_of_zero", "variants.ffn_hidden_size.multiple_of"},
        {"integer_reversed", "variants.hidden_size: max is below min"},
        {"integer_overflow", "variants.hidden_size.min"},
        {"integer_fraction", "variants.hidden_size.min: expected a whole number"},
        {"grid_reversed", "variants.x: max is below min"},
        {"grid_saturating", "variants.x.min"},
        {"grid_steps_saturate", "variants.x: more than 2^53 steps"},
        {"grid_zero_step", "variants.x.step: must be positive"},
        {"grid_min_missing", "variants.x.min: missing field"},
        {"length_empty", "variants.x.length: expected a length or [shortest, longest]"},
        {"length_reversed", "variants.x.length: the range is reversed"},
        {"length_huge", "variants.x.length: 4000000000 is outside"},
        {"length_zero", "variants.x.length: 0 is outside"},
        {"matrix_huge", "variants.w_gate: up to 4096x4096 elements"},
        {"one_of_empty", "variants.angle_degrees: expected a list"},
        {"one_of_number", "variants.angle_degrees[0]: expected protocol text"},
        {"points_fraction", "answers[0].points: expected a whole number"},
        {"points_zero", "answers[0].points: 0 is outside"},
        {"decimals_text", "answers[0].decimals: expected a whole number"},
        {"answers_object", "answers: expected a list"},
        {"answers_empty", "answers: expected at least one answer"},
        {"inputs_list", "inputs: expected"},
        {"variants_list", "variants: expected"},
        {"order_fraction", "order: expected a whole number"},
        {"decimal_misspelt", "answers[0].decimal: unknown field; did you mean \"decimals\"?"},
        {"hints_misspelt", "hint: unknown field; did you mean \"hints\"?"},
    };
    std::size_t seen = 0;
    for (const auto& entry : fs::directory_iterator(repository() / "tests/fuzz/corpus/exercise_loader")) {
        const std::string stem = entry.path().stem().string();
        if (!stem.starts_with("crafted-")) continue;
        ++seen;
        const std::string name = stem.substr(8);
        CAPTURE(name);
        REQUIRE(expected.contains(name));
        const std::string id = read_json_exact(entry.path())["id"].get<std::string>();
        const std::string message = load_error(entry.path());
        CHECK_MESSAGE(message.starts_with(id + ".json"), message);
        CHECK_MESSAGE(message.find(expected.at(name)) != std::string::npos, message);
    }
    CHECK(seen == expected.size());
}

TEST_CASE("the seed definitions of the fuzz corpus load, and their variants stay in range") {
    for (const char* name : {"seed-swiglu_matched_budget", "seed-swiglu_ffn_2d", "seed-rope_later_positions"})
        CHECK(load_error(repository() / "tests/fuzz/corpus/exercise_loader" / (std::string(name) + ".json")) == "(loaded)");
}

TEST_CASE("an integer range draws multiples of multiple_of within [min, max], negative bounds included") {
    Exercise e;
    e.file = "made_up.json";
    e.inputs = {{"n", "0"}};
    e.variants = nlohmann::ordered_json::parse(R"({"n": {"integer": {"min": -4, "max": 7, "multiple_of": 3}}})");
    std::set<std::string> drawn;
    for (std::uint64_t seed = 0; seed < 200; ++seed) drawn.insert(variant_inputs(e, seed)[0].second);
    CHECK(drawn == std::set<std::string>{"-3", "0", "3", "6"});
}

TEST_CASE("a reference vector or matrix without elements is a grader fault, never an out-of-range read") {
    const AnswerSpec vector_spec{"x", AnswerKind::vector, 2, Precision{Precision::decimals, 6}, {}};
    const ProgramLine empty{"x", Reading{std::vector<NumberText>{}}, 1, "x = []"};
    const PartResult v = grade_part(vector_spec, &empty, Value{Vector<Real>{}}, AnswerCompareOptions{true});
    CHECK(v.verdict == Verdict::grader_fault);
    CHECK(v.message.en.find("no elements") != std::string::npos);

    const AnswerSpec matrix_spec{"m", AnswerKind::matrix, 1, Precision{Precision::decimals, 6}, {}};
    const ProgramLine one{"m", parse_reading("[[1]]"), 1, "m = [[1]]"};
    const PartResult m = grade_part(matrix_spec, &one, Value{Matrix<Real>(0, 0)}, AnswerCompareOptions{});
    CHECK(m.verdict == Verdict::grader_fault);
}
