// compile_program, its cache, and the trimming of gcc's messages.
#include "checker/compile/compile.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "sandbox_testing.hpp"
#include "run_testing.hpp"
#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

using testing::sandbox_usable;
using testing::TempDir;

using testing::hostile_source;

using testing::write_file;

const std::string tiny_program = "#include <cstdio>\nint main() { std::puts(\"hi\"); }\n";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("compile: a small program compiles into the cache folder and runs") {
    TempDir cache("compile-cache");
    CompileResult compiled = compile_program(hostile_source("echo"), {}, cache.path);
    REQUIRE_MESSAGE(compiled.ok(), compiled.diagnostics);
    CHECK_FALSE(compiled.cached);
    CHECK(compiled.binary.parent_path() == fs::absolute(cache.path).lexically_normal());
    CHECK(compiled.diagnostics.empty());
    RunResult run = run_process({compiled.binary.string()}, "abc\n", Limits{});
    CHECK(run.out == "abc\n");
}

TEST_CASE("compile: the second compile of the same source is cached and fast") {
    TempDir cache("compile-cache"), sources("compile-src");
    write_file(sources.path / "tiny.cpp", tiny_program);
    CompileResult first = compile_program(sources.path / "tiny.cpp", {}, cache.path);
    CompileResult second = compile_program(sources.path / "tiny.cpp", {}, cache.path);
    REQUIRE(first.ok());
    CHECK_FALSE(first.cached);
    CHECK(second.ok());
    CHECK(second.cached);
    CHECK(second.binary == first.binary);
}

TEST_CASE("compile: changing one byte of the source recompiles") {
    TempDir cache("compile-cache"), sources("compile-src");
    write_file(sources.path / "tiny.cpp", tiny_program);
    CompileResult first = compile_program(sources.path / "tiny.cpp", {}, cache.path);
    std::string changed = tiny_program;
    changed[changed.find("hi")] = 'H';
    write_file(sources.path / "tiny.cpp", changed);
    CompileResult second = compile_program(sources.path / "tiny.cpp", {}, cache.path);
    REQUIRE(second.ok());
    CHECK_FALSE(second.cached);
    CHECK(second.binary != first.binary);
    CHECK(run_process({second.binary.string()}, {}, Limits{}).out == "Hi\n");
}

TEST_CASE("compile: changing a header of the include folder recompiles") {
    TempDir cache("compile-cache"), sources("compile-src"), include("compile-include");
    write_file(include.path / "value.hpp", "constexpr int value = 1;\n");
    write_file(sources.path / "uses.cpp", "#include \"value.hpp\"\nint main() { return value; }\n");
    CompileResult first = compile_program(sources.path / "uses.cpp", include.path, cache.path);
    REQUIRE_MESSAGE(first.ok(), first.diagnostics);
    write_file(include.path / "value.hpp", "constexpr int value = 7;\n");
    CompileResult second = compile_program(sources.path / "uses.cpp", include.path, cache.path);
    REQUIRE(second.ok());
    CHECK_FALSE(second.cached);
    CHECK(run_process({second.binary.string()}, {}, Limits{}).exit_code == 7);
}

TEST_CASE("compile: a compile error gives diagnostics naming file:line, trimmed to three errors") {
    TempDir cache("compile-cache");
    CompileResult compiled = compile_program(hostile_source("compile_error"), {}, cache.path);
    CHECK_FALSE(compiled.ok());
    CHECK(compiled.binary.empty());
    CHECK(contains(compiled.diagnostics, "compile_error.cpp:5:5: error:"));
    CHECK(contains(compiled.diagnostics, "undeclared_name"));
    CHECK(contains(compiled.diagnostics, "... and 2 more errors"));
    CHECK_FALSE(contains(compiled.diagnostics, "missing_five"));
    CHECK_FALSE(contains(compiled.diagnostics, cache.path.string()));  // no build-folder paths
}

TEST_CASE("compile: forged grader messages in the compiler's output are still the program's compile error") {
    TempDir cache("compile-cache");
    for (const char* name : {"forged_compile_fault", "forged_out_of_memory"}) {
        CAPTURE(name);
        const CompileResult compiled = compile_program(hostile_source(name), {}, cache.path);
        CHECK(compiled.status == CompileStatus::rejected);
        CHECK(compiled.binary.empty());
    }
    const CompileResult forged = compile_program(hostile_source("forged_compile_fault"), {}, cache.path);
    CHECK(forged.cached);  // a rejection is cached, and stays a rejection
    CHECK(forged.status == CompileStatus::rejected);
    CHECK(forged.diagnostics.starts_with("cannot compile 'x"));
}

TEST_CASE("compile: a compiler that cannot start is the grader's fault") {
    TempDir cache("compile-cache"), sources("compile-src");
    write_file(sources.path / "tiny.cpp", tiny_program);
    const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
    ::setenv("PATH", "/nonexistent-blockcheck", 1);
    const CompileResult compiled = compile_program(sources.path / "tiny.cpp", {}, cache.path);
    ::setenv("PATH", path.c_str(), 1);
    CHECK(compiled.status == CompileStatus::grader_fault);
    CHECK_FALSE(compiled.cached);
}

TEST_CASE("compile: limits under which a known-good program cannot compile either are the grader's fault") {
    TempDir cache("compile-cache");
    Limits limits = compiler_limits();
    limits.memory_bytes = std::size_t{4} << 20;  // 4 MiB: not even cc1plus starts
    const CompileResult compiled = compile_program(hostile_source("compile_error"), {}, cache.path, limits);
    CHECK(compiled.status == CompileStatus::grader_fault);
    for (const auto& entry : fs::directory_iterator(cache.path))  // nothing recorded against the program
        CHECK_FALSE(entry.path().extension() == ".fail");
}

TEST_CASE("compile: a failed compile is cached with its diagnostics") {
    TempDir cache("compile-cache");
    CompileResult first = compile_program(hostile_source("compile_error"), {}, cache.path);
    CompileResult second = compile_program(hostile_source("compile_error"), {}, cache.path);
    CHECK_FALSE(second.ok());
    CHECK(second.cached);
    CHECK(second.diagnostics == first.diagnostics);
}

TEST_CASE("compile: a header of the include folder is named by that folder in diagnostics") {
    TempDir cache("compile-cache"), sources("compile-src"), include("compile-include");
    write_file(include.path / "broken.hpp", "int broken = ;\n");
    write_file(sources.path / "uses.cpp", "#include \"broken.hpp\"\nint main() {}\n");
    CompileResult compiled = compile_program(sources.path / "uses.cpp", include.path, cache.path);
    CHECK_FALSE(compiled.ok());
    CHECK(contains(compiled.diagnostics, include.path.filename().string() + "/broken.hpp:1:"));
    CHECK_FALSE(contains(compiled.diagnostics, include.path.string()));
}

TEST_CASE("compile: a template bomb fails within the compiler limits") {
    TempDir cache("compile-cache");
    Limits limits = compiler_limits();
    limits.wall_seconds = 3;
    limits.cpu_seconds = 3;
    limits.memory_bytes = std::size_t{1} << 30;
    CompileResult compiled = compile_program(hostile_source("template_bomb"), {}, cache.path, limits);
    CHECK_FALSE(compiled.ok());
    CHECK(compiled.status != CompileStatus::compiled);
    CHECK(compiled.seconds < 5 + 3);  // the bomb's 3 s, then a known-good probe under the same limits
    CHECK(contains(compiled.diagnostics, "the compiler"));
    for (const auto& entry : fs::directory_iterator(cache.path))  // no binary, no failure recorded
        CHECK_MESSAGE(entry.path().filename().string().starts_with("compiler-"), entry.path());
}

TEST_CASE("compile: a source that cannot be read gives a message naming it") {
    TempDir cache("compile-cache");
    CompileResult compiled = compile_program("/nonexistent/blockcheck.cpp", {}, cache.path);
    CHECK_FALSE(compiled.ok());
    CHECK(contains(compiled.diagnostics, "/nonexistent/blockcheck.cpp"));
}

TEST_CASE("compile: concurrent identical compiles run the compiler once and leave no temporary files") {
    TempDir cache("compile-cache"), sources("compile-src");
    write_file(sources.path / "tiny.cpp", tiny_program);
    std::vector<CompileResult> results(4);
    std::vector<std::thread> threads;
    for (auto& result : results)
        threads.emplace_back([&] { result = compile_program(sources.path / "tiny.cpp", {}, cache.path); });
    for (auto& thread : threads) thread.join();
    int compiled = 0;
    for (const auto& result : results) {
        CHECK(result.ok());
        CHECK(result.binary == results[0].binary);
        compiled += result.cached ? 0 : 1;
    }
    CHECK(compiled == 1);
    for (const auto& entry : fs::directory_iterator(cache.path)) {
        const std::string name = entry.path().filename().string();
        CHECK_MESSAGE(!contains(name, "tmp"), name);
        CHECK_MESSAGE(!contains(name, "build-"), name);
    }
}

TEST_CASE("compile: the sandboxed compiler cannot include a file outside its folders") {
    if (!sandbox_usable()) return;
    TempDir cache("compile-cache"), sources("compile-src"), other("compile-other");
    write_file(other.path / "secret.hpp", "int secret = 42;\n");
    write_file(sources.path / "steal.cpp",
               "#include \"" + (other.path / "secret.hpp").string() + "\"\nint main() { return secret; }\n");
    CompileResult compiled = compile_program(sources.path / "steal.cpp", {}, cache.path);
    CHECK_FALSE(compiled.ok());
    CHECK(contains(compiled.diagnostics, "No such file or directory"));
}

TEST_CASE("compile: trim_diagnostics keeps the first errors with their lead-in and context lines") {
    const std::string gcc = "a.cpp: In function 'int main()':\n"
                            "a.cpp:3:5: error: 'x' was not declared in this scope\n"
                            "    3 |     x = 1;\n"
                            "      |     ^\n"
                            "a.cpp:4:5: error: 'y' was not declared in this scope\n"
                            "    4 |     y = 1;\n"
                            "a.cpp:5:5: error: 'z' was not declared in this scope\n"
                            "compilation terminated.\n";
    const std::string trimmed = trim_diagnostics(gcc, 1);
    CHECK(trimmed == "a.cpp: In function 'int main()':\n"
                     "a.cpp:3:5: error: 'x' was not declared in this scope\n"
                     "    3 |     x = 1;\n"
                     "      |     ^\n"
                     "... and 2 more errors");
}

TEST_CASE("compile: trim_diagnostics attaches instantiation chains and notes to their error") {
    const std::string gcc = "a.cpp: In instantiation of 'struct X<1>':\n"
                            "a.cpp:9:15:   required from here\n"
                            "a.cpp:5:20: error: bad thing\n"
                            "a.cpp:2:8: note: declared here\n"
                            "a.cpp:7:1: error: second\n";
    CHECK(trim_diagnostics(gcc, 1) == "a.cpp: In instantiation of 'struct X<1>':\n"
                                      "a.cpp:9:15:   required from here\n"
                                      "a.cpp:5:20: error: bad thing\n"
                                      "a.cpp:2:8: note: declared here\n"
                                      "... and 1 more error");
}

TEST_CASE("compile: trim_diagnostics drops warnings when there are errors and keeps them otherwise") {
    const std::string mixed = "a.cpp:1:1: warning: unused\na.cpp:2:1: error: broken\n";
    CHECK(trim_diagnostics(mixed) == "a.cpp:2:1: error: broken");
    CHECK(trim_diagnostics("a.cpp:1:1: warning: unused\n") == "a.cpp:1:1: warning: unused");
}

TEST_CASE("compile: trim_diagnostics cuts very long lines and keeps unrecognised text") {
    const std::string long_line = "a.cpp:1:1: error: " + std::string(1000, 'T');
    const std::string trimmed = trim_diagnostics(long_line);
    CHECK(trimmed.size() < 400);
    CHECK(trimmed.ends_with("..."));
    CHECK(trim_diagnostics("g++: fatal signal\n") == "g++: fatal signal");
}

TEST_CASE("compile: compiler_limits bound a template bomb") {
    Limits limits = compiler_limits();
    CHECK(limits.wall_seconds == 30);
    CHECK(limits.memory_bytes == std::size_t{2} << 30);
}

TEST_CASE("compile: on the student's own tree a linked header beside the source is read and reported") {
    TempDir cache("compile-cache"), sources("compile-src"), elsewhere("compile-elsewhere");
    write_file(elsewhere.path / "mine.hpp", "inline int mine() { return 0; }\n");
    fs::create_symlink(elsewhere.path / "mine.hpp", sources.path / "mine.hpp");
    write_file(sources.path / "uses_mine.cpp", "#include \"mine.hpp\"\nint main() { return mine(); }\n");
    const CompileResult compiled = compile_program(sources.path / "uses_mine.cpp", {}, cache.path);
    REQUIRE_MESSAGE(compiled.ok(), compiled.diagnostics);
    REQUIRE(compiled.notes.size() == 1);
    CHECK(contains(compiled.notes[0].en, "mine.hpp is a link: read here, but the grader does not follow links"));
}

TEST_CASE("compile: a hard-linked header's ordinary compile error is reported as one, not as running out of memory") {
    // The red team's: a header hard-linked into the submission (here a copy of /etc/passwd's
    // kind of text) breaks the standard headers after it, whose quoted lines name std::bad_alloc.
    TempDir cache("compile-cache"), sources("compile-src"), elsewhere("compile-elsewhere");
    write_file(elsewhere.path / "accounts.hpp", "root:x:0:0:root:/root:/bin/bash\n");
    fs::create_hard_link(elsewhere.path / "accounts.hpp", sources.path / "accounts.hpp");
    write_file(sources.path / "uses_accounts.cpp", "#include \"accounts.hpp\"\n#include <new>\nint main() {}\n");
    const CompileResult first = compile_program(sources.path / "uses_accounts.cpp", {}, cache.path);
    CHECK(first.status == CompileStatus::rejected);
    CHECK(contains(first.diagnostics, "accounts.hpp:1:"));
    CHECK_FALSE(contains(first.diagnostics, "ran out of memory"));
    const CompileResult second = compile_program(sources.path / "uses_accounts.cpp", {}, cache.path);
    CHECK(second.cached);  // an ordinary rejection is cached; a limit stop never is
    CHECK(second.status == CompileStatus::rejected);
}
