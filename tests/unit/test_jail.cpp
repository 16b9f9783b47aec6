// ProgramJail against programs that hunt for the grader: its environment (/proc/*/environ),
// its processes, and its jail's first process (ptrace).
#include "checker/exercise/grading.hpp"
#include "checker/run/compile.hpp"
#include "checker/run/sandbox.hpp"

#include <doctest/doctest.h>
#include <signal.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

fs::path compiled_hostile(const std::string& name, const fs::path& cache) {
    const CompileResult compiled =
        compile_program(fs::path(BLOCKCHECK_SOURCE_DIR) / "tests" / "hostile" / (name + ".cpp"), {}, cache);
    REQUIRE_MESSAGE(compiled.ok(), compiled.diagnostics);
    return compiled.binary;
}

Limits small_limits() {
    Limits limits;
    limits.cpu_seconds = 1;
    limits.wall_seconds = 3;
    return limits;
}

bool uses_bwrap(const ProgramJail& jail) {
    return jail.isolation() == Isolation::bubblewrap_uid || jail.isolation() == Isolation::bubblewrap;
}

}  // namespace

TEST_CASE("jail: no variable of the grader is readable in any process a program can see") {
    testing::TempDir cache("jail-cache");
    const fs::path reader = compiled_hostile("environ_reader", cache.path);
    ::setenv("BLOCKCHECK_CANARY", "canary-7f3a91", 1);
    ProgramJail jail;  // started after the canary, as a grader started with it would be
    const RunResult r = jail.run(reader, {}, small_limits());
    ::unsetenv("BLOCKCHECK_CANARY");
    REQUIRE(r.status == RunStatus::exited);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("environ ") != std::string::npos);  // it did read environments (at least its own)
    CHECK(r.out.find("canary-7f3a91") == std::string::npos);
    CHECK(r.out.find("BLOCKCHECK_CANARY") == std::string::npos);
    if (uses_bwrap(jail)) {
        // Its own PID namespace: bwrap's init and the program, none of the grader's processes.
        CHECK(r.out.find("processes 2\n") != std::string::npos);
        CHECK(r.out.find("environ 1 PATH=/usr/bin:/bin\n") != std::string::npos);
    }
}

TEST_CASE("jail: a program that ptraces its parent is killed by the filter, not left to time out") {
    testing::TempDir cache("jail-cache");
    const fs::path tracer = compiled_hostile("ptrace_parent", cache.path);
    ProgramJail jail;
    if (!uses_bwrap(jail)) return;  // without bwrap its parent is the grader's own (root) process
    const RunResult r = jail.run(tracer, {}, small_limits());
    CHECK(r.status == RunStatus::signaled);
    CHECK(r.signal == SIGSYS);
    CHECK(r.out.find("attach ok") == std::string::npos);
    CHECK(describe_end(r, small_limits()).en.find("forbidden system call (ptrace") != std::string::npos);
    CHECK(verdict_of_end(r.status) == Verdict::crashed);
}
