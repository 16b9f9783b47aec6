// run_remembered: the student's loop runs a program again only when its binary, input or limits changed.
#include "checker/run/compile.hpp"
#include "checker/run/run_cache.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

// Prints its input and a number no two runs share (the clock's nanoseconds), then ends as the
// input asks: "crash" raises SIGABRT, anything else exits with code 3.
const std::string clock_program = R"(#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
int main() {
    std::string word;
    std::cin >> word;
    std::cout << word << " " << std::chrono::steady_clock::now().time_since_epoch().count() << std::endl;
    if (word == "crash") std::abort();
    return 3;
}
)";

fs::path compiled_clock(const testing::TempDir& dir) {
    std::ofstream(dir.path / "clock.cpp") << clock_program;
    const CompileResult build = compile_program(dir.path / "clock.cpp", {}, dir.path / "cache");
    REQUIRE_MESSAGE(build.ok(), build.diagnostics);
    return build.binary;
}

}  // namespace

TEST_CASE("run cache: the same binary, input and limits give the first run's outcome without running again") {
    testing::TempDir dir("run-cache");
    const fs::path binary = compiled_clock(dir);
    const RunResult first = run_remembered(binary, "same\n", Limits{});
    REQUIRE(first.status == RunStatus::exited);
    CHECK(first.exit_code == 3);
    const RunResult again = run_remembered(binary, "same\n", Limits{});
    CHECK(again.out == first.out);  // a new run would print another clock value
    CHECK(again.exit_code == 3);

    SUBCASE("another input runs the program") {
        const RunResult other = run_remembered(binary, "other\n", Limits{});
        CHECK(other.out.starts_with("other "));
    }
    SUBCASE("other limits run the program") {
        Limits longer;
        longer.wall_seconds += 1;
        const RunResult other = run_remembered(binary, "same\n", longer);
        CHECK(other.out.starts_with("same "));
        CHECK(other.out != first.out);
    }
    SUBCASE("a damaged record runs the program") {
        for (const auto& entry : fs::directory_iterator(binary.parent_path()))
            if (entry.path().string().find(".run-") != std::string::npos) std::ofstream(entry.path()) << "garbage";
        const RunResult rerun = run_remembered(binary, "same\n", Limits{});
        CHECK(rerun.status == RunStatus::exited);
        CHECK(rerun.out != first.out);
    }
}

TEST_CASE("run cache: a run that did not end by itself is run again") {
    testing::TempDir dir("run-cache");
    const fs::path binary = compiled_clock(dir);
    const RunResult first = run_remembered(binary, "crash\n", Limits{});
    REQUIRE(first.status == RunStatus::signaled);
    const RunResult again = run_remembered(binary, "crash\n", Limits{});
    CHECK(again.status == RunStatus::signaled);
    CHECK(again.out != first.out);
}
