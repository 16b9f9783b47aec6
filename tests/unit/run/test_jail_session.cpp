// Jail sessions (many programs in one bwrap, each in namespaces of its own): the same end as a
// jail of its own for every hostile program, and nothing one program leaves behind (files,
// processes, shared memory) reaching the next program of the same session.
#include "checker/compile/compile.hpp"
#include "checker/run/sandbox.hpp"

#include <doctest/doctest.h>
#include <signal.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "jail_testing.hpp"
#include "run_testing.hpp"
#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

Limits session_limits() { return testing::test_limits(1, 3, 128); }

fs::path compiled_text(const std::string& name, const std::string& text, const fs::path& dir) {
    const fs::path source = dir / (name + ".cpp");
    std::ofstream(source) << text;
    return testing::compiled_program(source, dir / "cache");
}

// Leaves what it can for the next program: files in its folder, /tmp and /dev/shm, a SysV
// shared-memory segment, and a child in a session of its own that keeps writing.
const char* litterer = R"(#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <initializer_list>
int main() {
    for (const char* path : {"left-behind", "/tmp/left-behind", "/dev/shm/left-behind"}) std::ofstream(path) << "x";
    shmget(0x5eed, 4096, IPC_CREAT | 0666);
    if (fork() == 0) {
        setsid();
        for (;;) { std::ofstream("/tmp/still-here") << "x"; usleep(10000); }
    }
    std::puts("littered");
}
)";

// Reports what it finds of an earlier program.
const char* finder = R"(#include <dirent.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>
#include <cctype>
#include <cstdio>
#include <initializer_list>
int main() {
    usleep(50000);
    for (const char* path : {"left-behind", "/tmp/left-behind", "/dev/shm/left-behind", "/tmp/still-here"})
        if (access(path, F_OK) == 0) std::printf("found %s\n", path);
    if (shmget(0x5eed, 0, 0) >= 0) std::puts("found shm");
    int processes = 0;
    DIR* proc = opendir("/proc");
    while (dirent* e = readdir(proc)) processes += std::isdigit(static_cast<unsigned char>(e->d_name[0])) != 0;
    std::printf("processes %d uid %d\n", processes, static_cast<int>(getuid()));
}
)";

}  // namespace

TEST_CASE("jail session: what a program leaves behind never reaches the next program") {
    testing::TempDir dir("session");
    const fs::path litter = compiled_text("litterer", litterer, dir.path);
    const fs::path find = compiled_text("finder", finder, dir.path);
    ProgramJail jail;
    if (!testing::sessions_usable(jail)) return;
    const RunResult first = jail.run(litter, {}, session_limits());
    CHECK(first.status == RunStatus::exited);
    CHECK(first.out == "littered\n");
    const RunResult second = jail.run(find, {}, session_limits());
    REQUIRE(second.status == RunStatus::exited);
    CHECK(second.out.find("found") == std::string::npos);
    CHECK(second.out.find("processes 2 uid ") == 0);  // its first process and itself
    // Another throw-away uid than the one before.
    const RunResult third = jail.run(find, {}, session_limits());
    CHECK(third.out.substr(third.out.find("uid ")) != second.out.substr(second.out.find("uid ")));
}

TEST_CASE("jail session: every hostile program ends as in a jail of its own, and an honest one runs after each") {
    testing::TempDir dir("session-hostile");
    testing::BothJails jails;
    if (!testing::sessions_usable(jails.session)) return;
    const fs::path hostile = fs::path(BLOCKCHECK_SOURCE_DIR) / "tests" / "hostile";
    const fs::path echo = testing::compiled_program(hostile / "echo.cpp", dir.path);
    for (const char* name : {"infinite_loop", "sleeper", "output_flood", "segfault", "abort", "stack_overflow",
                             "memory_hog", "fork_storm", "ptrace_parent", "escape_writer", "environ_reader", "fs_hunter"}) {
        CAPTURE(name);
        const fs::path binary = testing::compiled_program(hostile / (std::string(name) + ".cpp"), dir.path);
        const RunResult in_session = jails.session.run(binary, "x = 1\n", session_limits());
        const RunResult alone = jails.one_off.run(binary, "x = 1\n", session_limits());
        CHECK(to_string(in_session.status) == to_string(alone.status));
        // How a run stopped by a limit ended (the signal, the output kept) depends on timing.
        const bool stopped = alone.status == RunStatus::timed_out || alone.status == RunStatus::output_limit;
        if (!stopped) {
            CHECK(in_session.exit_code == alone.exit_code);
            CHECK(in_session.signal == alone.signal);
        }
        if (std::string(name) == "environ_reader") {
            // The session's init is root and not dumpable: its environment is not readable at
            // all (bwrap's init, of the program's uid, shows PATH only).
            CHECK(in_session.out.find("environ 1 ") == std::string::npos);
            CHECK(in_session.out.find("processes 2\n") != std::string::npos);
        } else if (std::string(name) == "fork_storm") {
            // One fewer process of its uid in a session (no bwrap monitor outside its namespace):
            // the storm gets one more child before RLIMIT_NPROC; its process group is the same.
            CHECK(in_session.out.substr(0, in_session.out.find('\n')) == alone.out.substr(0, alone.out.find('\n')));
        } else if (!stopped) {
            CHECK(in_session.out == alone.out);
        }
        const RunResult after = jails.session.run(echo, "x = 1\n", session_limits());
        CHECK(after.status == RunStatus::exited);
        CHECK(after.exit_code == 0);
        CHECK(after.out == "x = 1\n");
    }
}
