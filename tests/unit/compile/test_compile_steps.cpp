// The steps of one compile as `bench --grading` takes them apart (compile_steps.hpp): each step
// runs, the whole compile is a real (uncached) compile, and the tools used are named. No timing
// is asserted: only that every step was measured.
#include "checker/compile/compile.hpp"
#include "checker/compile/compile_steps.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

TEST_CASE("compile steps: the median of an odd and an even count, and of nothing") {
    CHECK(median_of({3, 1, 2}) == 2);
    CHECK(median_of({4, 1, 3, 2}) == 2.5);
    CHECK(median_of({}) == 0);
}

// A small header of its own (the students' header's build takes seconds), include-guarded: read
// whole, precompiled.
TEST_CASE("compile steps: one round of a program measures every step and names the tools") {
    TempDir cache("compile-steps-cache"), include("compile-steps-include"), sources("compile-steps-src");
    std::ofstream(include.path / "blockcheck.hpp") << "#ifndef FORTY_TWO\n#define FORTY_TWO\ninline int forty_two() { return 42; }\n#endif\n";
    std::ofstream(sources.path / "answer.cpp") << "#include \"blockcheck.hpp\"\nint main() { return forty_two() - 42; }\n";
    const CompileStepTimes t = time_compile_steps({sources.path / "answer.cpp"}, include.path, cache.path, 1);
    REQUIRE(t.failed == "");
    CHECK(t.rounds == 1);
    CHECK(t.linker == linker_name(CompileWay::fast));
    CHECK(t.compiler.starts_with("g++"));
    CHECK(t.interface.starts_with("the whole header, precompiled ("));
    for (double seconds : {t.empty, t.header, t.header_whole, t.program, t.boilerplate_read, t.boilerplate_precompiled,
                           t.link, t.bare_true, t.jailed_true, t.whole})
        CHECK(seconds > 0);
    // the private folder of the steps is gone; the header's build and the whole compile's entry stay
    for (const auto& entry : fs::directory_iterator(cache.path))
        CHECK_FALSE(entry.path().filename().string().starts_with("build-steps-"));
}

TEST_CASE("compile steps: a program that does not compile is named with its round, and nothing is measured") {
    TempDir cache("compile-steps-cache"), include("compile-steps-include"), sources("compile-steps-src");
    std::ofstream(include.path / "blockcheck.hpp") << "#pragma once\n";
    std::ofstream(sources.path / "broken.cpp") << "int main() { return missing; }\n";
    const CompileStepTimes t = time_compile_steps({sources.path / "broken.cpp"}, include.path, cache.path, 2);
    CHECK(t.failed == "the step 'program' failed in round 0");
    CHECK(t.rounds == 0);
}
