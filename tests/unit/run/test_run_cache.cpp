// run_remembered: the student's loop runs a program again only when its binary, input or limits changed.
#include "checker/common/files.hpp"
#include "checker/compile/compile.hpp"
#include "checker/run/detail/jail_protocol.hpp"
#include "checker/run/run_cache.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

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

// The run records kept beside `binary`.
std::vector<fs::path> records_of(const fs::path& binary) {
    std::vector<fs::path> records;
    for (const auto& entry : fs::directory_iterator(binary.parent_path()))
        if (entry.path().string().starts_with(binary.string() + ".run-")) records.push_back(entry.path());
    return records;
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

TEST_CASE("run cache: a planted record is not believed") {
    testing::TempDir dir("run-cache");
    const fs::path binary = compiled_clock(dir);
    const RunResult first = run_remembered(binary, "same\n", Limits{});
    REQUIRE(records_of(binary).size() == 1);
    const fs::path record = records_of(binary).front();
    RunResult forged = first;
    forged.out = "forged 42\n";
    forged.exit_code = 0;

    SUBCASE("a record as earlier versions wrote it") {
        write_file_atomically(record, jail_protocol::encode(forged));
    }
    SUBCASE("a genuine tag over another outcome") {
        const std::string text = read_file(record);
        const std::size_t head = text.find('\n', text.find('\n') + 1) + 1;
        write_file_atomically(record, text.substr(0, head) + jail_protocol::encode(forged));
    }
    SUBCASE("another binary's genuine record") {
        std::ofstream(dir.path / "other.cpp") << "#include <cstdio>\nint main() { std::puts(\"forged 42\"); }\n";
        const CompileResult other = compile_program(dir.path / "other.cpp", {}, dir.path / "cache");
        REQUIRE(other.ok());
        run_remembered(other.binary, "same\n", Limits{});
        REQUIRE(records_of(other.binary).size() == 1);
        fs::copy_file(records_of(other.binary).front(), record, fs::copy_options::overwrite_existing);
    }
    const RunResult again = run_remembered(binary, "same\n", Limits{});
    CHECK(again.out.starts_with("same "));
    CHECK(again.out != first.out);  // run again: the clock moved
    CHECK(again.exit_code == 3);
}
