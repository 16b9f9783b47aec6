// The student header (chapters/blockcheck.hpp) as a student meets it: answer() takes any number
// type and vectors of them, each answer line is flushed so answers printed before a crash count,
// and a misspelled input names the inputs there are.
#include "checker/exercise/exercise_set.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/compile/compile.hpp"

#include <doctest/doctest.h>

#include <fstream>

#include "temp_dir.hpp"

#include "exercise_testing.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

using testing::TempDir;

const fs::path repo = BLOCKCHECK_SOURCE_DIR;

// Compiles `program` against chapters/ and runs it on `stdin_text`.
RunResult compile_and_run(const std::string& program, const std::string& stdin_text) {
    static TempDir cache("header-cache");
    TempDir sources("header-src");
    std::ofstream(sources.path / "program.cpp") << program;
    const CompileResult build = compile_program(sources.path / "program.cpp", repo / "chapters", cache.path);
    REQUIRE_MESSAGE(build.ok(), build.diagnostics);
    return run_process({build.binary.string()}, stdin_text, Limits{});
}

const ExerciseSet& exercises() { return testing::shipped_exercises(); }

}  // namespace

TEST_CASE("student header: answer() prints any integer or floating vector and matrix") {
    const RunResult run = compile_and_run(R"(#include "blockcheck.hpp"
#include <cstddef>
using namespace bc;
int main() {
    answer("longs", std::vector<long>{1, -2});
    answer("ints", std::vector<int>{3});
    answer("floats", std::vector<float>{0.5f});
    answer("float_matrix", std::vector<std::vector<float>>{{1.5f, 2}, {3, 4}});
    answer("size", std::size_t{7});
    answer("flag", false);
    answer("x", 0.25f);
})", "");
    CHECK(run.out ==
          "longs = [1, -2]\n"
          "ints = [3]\n"
          "floats = [5.0000000000000000e-01]\n"
          "float_matrix = [[1.5000000000000000e+00, 2.0000000000000000e+00], [3.0000000000000000e+00, "
          "4.0000000000000000e+00]]\n"
          "size = 7\n"
          "flag = false\n"
          "x = 2.5000000000000000e-01\n");
}

TEST_CASE("student header: answers printed before a crash count, the rest are crashed") {
    const Exercise& e = exercises().at("rms_norm_zero_row");
    // A program that answers the first part right, then aborts.
    const Values expected = expected_answers(e, e.inputs);
    const std::string first = e.answers.front().name;
    const RunResult run = compile_and_run(R"(#include "blockcheck.hpp"
#include <cstdlib>
using namespace bc;
int main() {
    answer_decimal(")" + first + R"(", ")" + to_decimal(std::get<Real>(expected.at(first)), 20) + R"(.000000");
    std::abort();
})", input_text(e.inputs));
    REQUIRE(run.status == RunStatus::signaled);
    const ExerciseResult r = grade_run(e, e.inputs, run, Limits{}, {});
    CHECK(r.parts.front().verdict == Verdict::correct);
    for (std::size_t i = 1; i < r.parts.size(); ++i) CHECK(r.parts[i].verdict == Verdict::crashed);
    CHECK(r.status == "failing");
    CHECK_FALSE(r.whole_program_verdict());
    CHECK(r.note.en.find("signal 6") != std::string::npos);
}

TEST_CASE("student header: a misspelled input lists the exercise's inputs and is not a crash") {
    const Exercise& e = exercises().at("rope_later_positions");
    const RunResult run = compile_and_run(R"(#include "blockcheck.hpp"
using namespace bc;
int main() { input_vector("qurey"); })", input_text(e.inputs));
    CHECK(run.err.find("this exercise has no input 'qurey'; its inputs are: query, key, angle_degrees, "
                       "query_position, key_position") != std::string::npos);
    const ExerciseResult r = grade_run(e, e.inputs, run, Limits{}, {});
    for (const PartResult& p : r.parts) {
        CHECK(p.verdict == Verdict::missing);
        CHECK(p.message.en.find("its inputs are: query, key") != std::string::npos);
    }
}

TEST_CASE("student header: an input under its former name gets a did-you-mean, not a crash") {
    // the companion's SwiGLU weights were gate/up/down; they are w_gate/w_up/w_down as in chapter 25
    const Exercise& e = exercises().at("llama_block_tiny");
    for (const auto& [old_name, new_name] : {std::pair{"gate", "w_gate"}, {"up", "w_up"}, {"down", "w_down"}}) {
        const RunResult run = compile_and_run(std::string(R"(#include "blockcheck.hpp"
using namespace bc;
int main() { input_matrix(")") + old_name + R"("); })", input_text(e.inputs));
        const ExerciseResult r = grade_run(e, e.inputs, run, Limits{}, {});
        CHECK(r.note.en.find(std::string("has no input '") + old_name + "'") != std::string::npos);
        CHECK(r.note.en.find(std::string("did you mean `") + new_name + "`?") != std::string::npos);
        for (const PartResult& p : r.parts) CHECK(p.verdict == Verdict::missing);
    }
}

TEST_CASE("student header: a crash's stderr keeps its line breaks") {
    RunResult run;
    run.status = RunStatus::exited;
    run.exit_code = 3;
    run.err = "first line\nsecond line\n";
    const Text end = describe_end(run, Limits{});
    CHECK(end.en == "exited with status 3\nfirst line\nsecond line");
}

TEST_CASE("student header: a timeout states the limits, never the time measured, so a result repeats on a loaded machine") {
    Limits limits;
    limits.cpu_seconds = 1;
    limits.wall_seconds = 2;
    RunResult quiet, loaded;
    quiet.status = loaded.status = RunStatus::timed_out;
    quiet.wall_seconds = 2.03;
    loaded.wall_seconds = 2.14;
    const Text end = describe_end(quiet, limits);
    CHECK(end.en == "stopped at the time limit (1 s CPU, 2 s wall): an endless loop, or waiting for input?");
    CHECK(end.zh == "达到时间限制（CPU 1 秒，实际 2 秒）被终止：是死循环，还是在等待输入？");
    CHECK(describe_end(loaded, limits).en == end.en);
    CHECK(describe_end(loaded, limits).zh == end.zh);
}

TEST_CASE("student header: a misspelled answer name says which one was meant") {
    const Exercise& e = exercises().at("rope_later_positions");
    const ExerciseResult r = grade_output(e, e.inputs, "relative_angel_degrees = 90\n", {});
    REQUIRE(r.issues.size() == 1);
    CHECK(r.issues[0].message.en ==
          "line 1: `relative_angel_degrees = 90`: this exercise has no answer called 'relative_angel_degrees'; did you "
          "mean `relative_angle_degrees`?");
    CHECK(r.issues[0].message.zh.find("是不是想写 `relative_angle_degrees`？") != std::string::npos);
    CHECK_FALSE(closest_name("something_else_entirely", {"dot", "rope_query"}));
}

TEST_CASE("student header: a program's own header beside it compiles, travels with it and is part of its key") {
    TempDir cache("own-header-cache"), sources("own-header-src");
    std::ofstream(sources.path / "my_helpers.hpp") << "inline double twice(double x) { return 2 * x; }\n";
    std::ofstream(sources.path / "program.cpp") << R"(#include "blockcheck.hpp"
#include "my_helpers.hpp"
using namespace bc;
int main() { answer("x", twice(input_number("x"))); })";
    const CompileResult first = compile_program(sources.path / "program.cpp", repo / "chapters", cache.path);
    REQUIRE_MESSAGE(first.ok(), first.diagnostics);
    CHECK(run_process({first.binary.string()}, "x = 1.5\n", Limits{}).out == "x = 3.0000000000000000e+00\n");
    std::ofstream(sources.path / "my_helpers.hpp") << "inline double twice(double x) { return 3 * x; }\n";
    const CompileResult second = compile_program(sources.path / "program.cpp", repo / "chapters", cache.path);
    REQUIRE(second.ok());
    CHECK_FALSE(second.cached);
    CHECK(run_process({second.binary.string()}, "x = 1.5\n", Limits{}).out == "x = 4.5000000000000000e+00\n");
}

TEST_CASE("student header: compiler messages name the source as the student sees it") {
    TempDir cache("display-cache"), sources("display-src");
    std::ofstream(sources.path / "gqa_groups.cpp") << "int main() {\n    return missing_name;\n}\n";
    const CompileResult r = compile_program(sources.path / "gqa_groups.cpp", repo / "chapters", cache.path,
                                            compiler_limits(), CompileWay::fast, "chapters/gqa_long_context/gqa_groups.cpp");
    REQUIRE_FALSE(r.ok());
    CHECK(r.diagnostics.find("chapters/gqa_long_context/gqa_groups.cpp:2:12: error") != std::string::npos);
}
