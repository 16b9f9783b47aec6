// Assignments: which exercises a course command counts and at what points (--assignment FILE,
// --exercises a,b,c, --chapter), and the errors of a bad assignment file.
#include "checker/course/assignment.hpp"

#include <doctest/doctest.h>

#include <fstream>

#include "exercise_testing.hpp"
#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

using testing::shipped_exercises;
using testing::TempDir;

fs::path written(const TempDir& dir, const std::string& name, const std::string& text) {
    const fs::path file = dir.path / name;
    std::ofstream(file) << text;
    return file;
}

// The message of the InputFileError `f` throws; "" when it throws none.
template <class F>
std::string error_of(F f) {
    try {
        f();
    } catch (const InputFileError& e) {
        return e.what();
    }
    return "";
}

std::vector<double> part_points(const Exercise& e) {
    std::vector<double> points;
    for (const AnswerSpec& a : e.answers) points.push_back(a.points);
    return points;
}

}  // namespace

TEST_CASE("assignment: the file's exercises only, each at its points with its parts scaled, else its own") {
    TempDir dir("assignment");
    const fs::path file = written(dir, "week1.json", R"({"name": "week 1", "exercises": [
        {"id": "swiglu_ffn_2d", "points": 3}, {"id": "kv_cache_sizes"}, {"id": "rms_norm_zero_row", "points": 2.5}]})");
    const Assignment a = read_assignment(file);
    CHECK(a.name == "week 1");
    REQUIRE(a.exercises.size() == 3);
    const ExerciseSet set = shipped_exercises().only_exercises(a.exercises);
    std::vector<std::string> ids;
    for (const Exercise& e : set.all()) ids.push_back(e.id);
    // board order: chapter 25 before the companion chapter
    CHECK(ids == std::vector<std::string>{"swiglu_ffn_2d", "rms_norm_zero_row", "kv_cache_sizes"});
    CHECK(set.at("swiglu_ffn_2d").max_score() == doctest::Approx(3));
    CHECK(part_points(set.at("swiglu_ffn_2d")) == std::vector<double>{0.5, 0.5, 0.5, 0.5, 1});  // 1,1,1,1,2 of 6
    CHECK(set.at("rms_norm_zero_row").max_score() == doctest::Approx(2.5));
    CHECK(set.at("kv_cache_sizes").max_score() == shipped_exercises().at("kv_cache_sizes").max_score());
    // the file names of the whole book stay known: a file of an unassigned exercise is no misnamed file
    CHECK(set.every_file_name().size() == shipped_exercises().all().size());
}

TEST_CASE("assignment: a bad file is refused naming the file and field, an unknown id with the closest one") {
    TempDir dir("assignment-bad");
    auto error = [&](const std::string& text) {
        const fs::path file = written(dir, "a.json", text);
        return error_of([&] { shipped_exercises().only_exercises(read_assignment(file).exercises); });
    };
    const std::string where = (dir.path / "a.json").string();
    CHECK(error(R"({"name": "w", "exercises": [{"id": "swiglu_ffn_2d"}, {"id": "kv_cache_size"}]})") ==
          where + ": exercises[1].id: no exercise \"kv_cache_size\"; did you mean \"kv_cache_sizes\"?");
    CHECK(error(R"({"name": "w", "exercises": [{"id": "swiglu_ffn_2d", "points": 0}]})").starts_with(where + ": exercises[0].points: "));
    CHECK(error(R"({"name": "w", "exercises": [{"id": "swiglu_ffn_2d", "point": 2}]})").starts_with(where + ": exercises[0].point: unknown field"));
    CHECK(error(R"({"name": "w", "exercises": []})").starts_with(where + ": exercises: expected a non-empty list"));
    CHECK(error(R"({"exercises": [{"id": "swiglu_ffn_2d"}]})").starts_with(where + ": name"));
    CHECK(error(R"({"name": "w", "exercises": [{"id": "swiglu_ffn_2d"}, {"id": "swiglu_ffn_2d"}]})") ==
          where + ": exercises[1].id: \"swiglu_ffn_2d\" is picked twice");
}

TEST_CASE("assignment: --exercises a,b is a quick one; two ways of choosing at once are refused") {
    ExerciseChoice quick;
    quick.exercises = "gqa_groups, kv_cache_sizes";
    const ExerciseSet set = chosen_exercises(shipped_exercises(), quick);
    CHECK(set.all().size() == 2);
    CHECK(set.find("gqa_groups") != nullptr);
    quick.exercises = "gqa_groups,kv_cache_size";
    CHECK(error_of([&] { chosen_exercises(shipped_exercises(), quick); }) ==
          "--exercises: no exercise \"kv_cache_size\"; did you mean \"kv_cache_sizes\"?");
    quick.exercises = "gqa_groups,,kv_cache_sizes";
    CHECK(error_of([&] { chosen_exercises(shipped_exercises(), quick); }).find("an empty name") != std::string::npos);

    ExerciseChoice both;
    both.chapters = {"ch25"};
    both.exercises = "gqa_groups";
    CHECK(error_of([&] { chosen_exercises(shipped_exercises(), both); }).starts_with("give one of --chapter, --assignment and --exercises"));
    ExerciseChoice chapter;
    chapter.chapters = {"ch25"};
    for (const Exercise& e : chosen_exercises(shipped_exercises(), chapter).all()) CHECK(e.chapter == "ch25");
    CHECK(chosen_exercises(shipped_exercises(), ExerciseChoice{}).all().size() == shipped_exercises().all().size());
}

TEST_CASE("assignment: the example file under docs/ is an assignment of the shipped exercises") {
    const Assignment a = read_assignment(testing::repository() / "docs/examples/assignment-week1.json");
    CHECK(shipped_exercises().only_exercises(a.exercises).all().size() == a.exercises.size());
}
