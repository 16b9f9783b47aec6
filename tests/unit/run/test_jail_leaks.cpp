// Issue 21's holes in a jail session, each with the hostile program of tests/hostile that found
// it: an earlier program's stdin and stdout in the memory of a program's first process
// (runner_memory), values passed through a shared network namespace (tcp_time_wait), and keys
// left in, or read from, an inherited keyring (keyring_thief), including the grader's own.
#include "checker/compile/compile.hpp"
#include "checker/run/sandbox.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "jail_testing.hpp"
#include "run_testing.hpp"
#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

Limits leak_limits() { return testing::test_limits(2, 5, 512); }

fs::path hostile_program(const std::string& name, const fs::path& cache) { return testing::compiled_hostile(name, cache); }

std::size_t occurrences(const std::string& text, const std::string& word) {
    std::size_t n = 0;
    for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("jail session: a program reads nothing of earlier programs in its first process's memory") {
    testing::TempDir dir("leak-memory");
    const fs::path echo = hostile_program("echo", dir.path);
    const fs::path hunter = hostile_program("runner_memory", dir.path);
    ProgramJail jail;
    if (!testing::sessions_usable(jail)) return;
    for (int i = 0; i < 3; ++i) {
        const RunResult honest = jail.run(echo, "canary-5e1f = 4242\n", leak_limits());
        REQUIRE(honest.out == "canary-5e1f = 4242\n");
    }
    const RunResult r = jail.run(hunter, {}, leak_limits());
    CAPTURE(r.out);
    CHECK(r.status == RunStatus::exited);
    CHECK(r.out.find("4242") == std::string::npos);
    CHECK(r.out.find("maps unreadable\n") == 0);
    CHECK(r.out.find("mem unreadable") != std::string::npos);
}

TEST_CASE("jail session: two programs share no network namespace (no TIME_WAIT passes a value)") {
    testing::TempDir dir("leak-net");
    const fs::path program = hostile_program("tcp_time_wait", dir.path);
    ProgramJail jail;
    if (!testing::sessions_usable(jail)) return;
    const RunResult sender = jail.run(program, "send 47613\n", leak_limits());
    REQUIRE(sender.out == "sent 47613\n");  // loopback is up, as in a jail of its own
    const RunResult receiver = jail.run(program, "receive\n", leak_limits());
    CHECK(receiver.out == "ports 0\n");
}

TEST_CASE("jail session: no keyring of the grader or of an earlier program is reachable, and keys are denied") {
    testing::TempDir dir("leak-keys");
    const fs::path thief = hostile_program("keyring_thief", dir.path);
    testing::GraderKeyring grader;
    testing::BothJails jails;
    if (!grader.usable || !testing::sessions_usable(jails.session)) return;
    for (ProgramJail* jail : {&jails.session, &jails.one_off}) {
        CAPTURE(jail->sessions());
        const RunResult plant = jail->run(thief, "plant\n", leak_limits());
        CHECK(plant.out == "add_key session failed: errno 38\nadd_key user failed: errno 38\n");
        const RunResult steal = jail->run(thief, "steal\n", leak_limits());
        CAPTURE(steal.out);
        CHECK(steal.out.find("ticket-secret-9d2e") == std::string::npos);
        CHECK(steal.out.find("left-value-7731") == std::string::npos);
        CHECK(steal.out.find("search krb5-ticket-of-the-TA failed: errno 38\n") != std::string::npos);  // ENOSYS
        CHECK(steal.out.find("found ") == std::string::npos);
        CHECK(occurrences(steal.out, "krb5-ticket-of-the-TA") == 2);  // its two searches; not listed in /proc/keys
    }
}
