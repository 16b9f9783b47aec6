// ProgramJail against programs that hunt for the grader: its environment (/proc/*/environ),
// its processes, its jail's first process (ptrace), and namespaces of their own; and the uid
// programs run as.
#include "checker/exercise/grading.hpp"
#include "checker/compile/compile.hpp"
#include "checker/run/sandbox.hpp"

#include <doctest/doctest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "jail_testing.hpp"
#include "run_testing.hpp"
#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

using testing::compiled_hostile;

Limits jail_limits() { return testing::test_limits(1, 3, 512); }

}  // namespace

TEST_CASE("jail: no variable of the grader is readable in any process a program can see") {
    testing::TempDir cache("jail-cache");
    const fs::path reader = compiled_hostile("environ_reader", cache.path);
    ::setenv("BLOCKCHECK_CANARY", "canary-7f3a91", 1);
    ProgramJail jail;  // started after the canary, as a grader started with it would be
    const RunResult r = jail.run(reader, {}, jail_limits());
    ::unsetenv("BLOCKCHECK_CANARY");
    REQUIRE(r.status == RunStatus::exited);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("environ ") != std::string::npos);  // it did read environments (at least its own)
    CHECK(r.out.find("canary-7f3a91") == std::string::npos);
    CHECK(r.out.find("BLOCKCHECK_CANARY") == std::string::npos);
    if (!testing::bwrap_usable(jail)) return;
    // Its own PID namespace: its init and the program, none of the grader's processes.
    CHECK(r.out.find("processes 2\n") != std::string::npos);
    if (jail.sessions()) {
        CHECK(r.out.find("environ 1 ") == std::string::npos);  // the session's init: root, not dumpable
    } else {
        CHECK(r.out.find("environ 1 PATH=/usr/bin:/bin\n") != std::string::npos);  // bwrap's init: PATH only
    }
}

TEST_CASE("jail: a program that ptraces its parent is killed by the filter, not left to time out") {
    testing::TempDir cache("jail-cache");
    const fs::path tracer = compiled_hostile("ptrace_parent", cache.path);
    ProgramJail jail;  // the filter is installed whatever the isolation
    const RunResult r = jail.run(tracer, {}, jail_limits());
    CHECK(r.status == RunStatus::signaled);
    CHECK(r.signal == SIGSYS);
    CHECK(r.out.find("attach ok") == std::string::npos);
    CHECK(describe_end(r, jail_limits()).en.find("forbidden system call (ptrace") != std::string::npos);
    CHECK(verdict_of_end(r.status) == Verdict::crashed);
}

TEST_CASE("jail: a program cannot create any namespace, whatever the isolation") {
    testing::TempDir cache("jail-cache");
    const fs::path maker = compiled_hostile("namespace_maker", cache.path);
    const std::string denied =
        "clone(CLONE_NEWUSER|CLONE_NEWNS) denied: errno 1\n"
        "clone3(CLONE_NEWUSER) denied: errno 38\n"
        "setns(net) denied: errno 1\n"
        "unshare(CLONE_NEWNET) denied: errno 1\n"
        "unshare(CLONE_NEWUSER) denied: errno 1\n";
    ProgramJail session;
    if (testing::sessions_usable(session)) CHECK(session.run(maker, {}, jail_limits()).out == denied);
    for (Isolation isolation : {Isolation::bubblewrap_uid, Isolation::bubblewrap, Isolation::uid_only, Isolation::limits_only}) {
        CAPTURE(isolation_name(isolation));
        ::setenv("BLOCKCHECK_GRADE_ISOLATION", std::string(isolation_name(isolation)).c_str(), 1);
        std::unique_ptr<ProgramJail> jail;
        try {
            jail = std::make_unique<ProgramJail>(false);
        } catch (const std::exception& e) {
            MESSAGE("isolation " << std::string(isolation_name(isolation)) << " does not work here: " << e.what());
        }
        ::unsetenv("BLOCKCHECK_GRADE_ISOLATION");
        if (jail) CHECK(jail->run(maker, {}, jail_limits()).out == denied);
    }
}

TEST_CASE("jail: as root, no program runs as root or as the grader, whatever the isolation") {
    if (::geteuid() != 0) {
        MESSAGE("skipped: throw-away uids need the tests to run as root");
        return;
    }
    testing::TempDir dir("jail-uid");
    const fs::path source = dir.path / "whoami.cpp";
    std::ofstream(source) << "#include <cstdio>\n#include <unistd.h>\n#include <grp.h>\nint main() { gid_t g[8]; "
                             "std::printf(\"%u %u %u %u %d\\n\", getuid(), geteuid(), getgid(), getegid(), getgroups(8, g)); }\n";
    const CompileResult whoami = compile_program(source, {}, dir.path / "cache");
    REQUIRE_MESSAGE(whoami.ok(), whoami.diagnostics);
    for (Isolation isolation : {Isolation::bubblewrap_uid, Isolation::uid_only}) {
        CAPTURE(isolation_name(isolation));
        ::setenv("BLOCKCHECK_GRADE_ISOLATION", std::string(isolation_name(isolation)).c_str(), 1);
        std::unique_ptr<ProgramJail> jail;
        try {
            jail = std::make_unique<ProgramJail>();
        } catch (const std::exception& e) {
            MESSAGE("skipped: bubblewrap cannot start here: " << e.what());
        }
        ::unsetenv("BLOCKCHECK_GRADE_ISOLATION");
        if (!jail) continue;
        for (int run = 0; run < 2; ++run) {  // in a session, the second run is the session's
            const RunResult r = jail->run(whoami.binary, {}, jail_limits());
            unsigned uid = 0, euid = 0, gid = 0, egid = 0;
            int groups = -1;
            REQUIRE(std::sscanf(r.out.c_str(), "%u %u %u %u %d", &uid, &euid, &gid, &egid, &groups) == 5);
            CHECK(uid >= 1'900'000'000u);
            CHECK(euid == uid);
            CHECK(gid == uid);
            CHECK(egid == uid);
            CHECK(groups == 0);
        }
    }
}
