// run_process against the hostile programs of tests/hostile (compiled once per test run).
#include "checker/compile/compile.hpp"
#include "checker/run/process.hpp"

#include <doctest/doctest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "jail_testing.hpp"
#include "sandbox_testing.hpp"
#include "run_testing.hpp"
#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

using testing::sandbox_usable;
using testing::TempDir;

// The programs of tests/hostile that compile, compiled together (in parallel) on first use.
const std::map<std::string, CompileResult>& hostile_binaries() {
    static TempDir cache("process-cache");
    static const auto binaries = [] {
        std::map<std::string, CompileResult> compiled;
        for (const char* name : {"echo", "infinite_loop", "sleeper", "output_flood", "segfault", "abort",
                                 "stack_overflow", "memory_hog", "fork_storm", "sandbox_probe", "keyring_thief"})
            compiled[name];
        std::vector<std::thread> threads;
        for (auto& [name, result] : compiled)
            threads.emplace_back([&, name = name] {
                const fs::path source = fs::path(BLOCKCHECK_SOURCE_DIR) / "tests" / "hostile" / (name + ".cpp");
                result = compile_program(source, {}, cache.path);
            });
        for (auto& thread : threads) thread.join();
        return compiled;
    }();
    return binaries;
}

// The binary of tests/hostile/<name>.cpp.
fs::path hostile(const std::string& name) {
    const CompileResult& compiled = hostile_binaries().at(name);
    REQUIRE_MESSAGE(compiled.ok(), compiled.diagnostics);
    return compiled.binary;
}

// Small limits keep the suite fast.
Limits process_limits() { return testing::test_limits(1, 2, 256); }

RunResult run_hostile(const std::string& name, const Limits& limits = process_limits()) {
    return run_process({hostile(name).string()}, {}, limits);
}

// Live (not zombie) processes whose process group is `pgid`, from /proc.
int living_in_group(int pgid) {
    int count = 0;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        std::ifstream stat(entry.path() / "stat");
        std::string text;
        if (!std::getline(stat, text)) continue;
        const auto close = text.rfind(')');
        if (close == std::string::npos || close + 2 > text.size()) continue;
        std::istringstream fields(text.substr(close + 2));
        char state = 0;
        int parent = 0, group = 0;
        fields >> state >> parent >> group;
        if (fields && group == pgid && state != 'Z' && state != 'X') ++count;
    }
    return count;
}

// SIGKILL is delivered asynchronously: allow the killed processes a moment to be gone.
int living_in_group_after_settling(int pgid) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        if (living_in_group(pgid) == 0) return 0;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return living_in_group(pgid);
}

}  // namespace

TEST_CASE("process: an honest program gets its stdin and exits 0") {
    RunResult result = run_process({hostile("echo").string()}, "hello\nworld\n", process_limits());
    CHECK(result.status == RunStatus::exited);
    CHECK(result.exit_code == 0);
    CHECK(result.out == "hello\nworld\n");
    CHECK(result.err.empty());
    CHECK(result.error.empty());
}

TEST_CASE("process: stdin larger than a pipe is fed in full") {
    const std::string big(3u << 20, 'x');
    Limits limits = process_limits();
    limits.output_bytes = 4u << 20;
    limits.wall_seconds = 20;  // about the pipe, not the clock: a loaded machine may take seconds
    RunResult result = run_process({hostile("echo").string()}, big, limits);
    CHECK(result.status == RunStatus::exited);
    CHECK(result.out.size() == big.size());
}

TEST_CASE("process: a program that never reads its stdin neither blocks nor kills the caller") {
    const std::string big(8u << 20, 'x');
    RunResult result = run_process({"true"}, big, process_limits());
    CHECK(result.status == RunStatus::exited);
    CHECK(result.exit_code == 0);  // exited, not timed_out: nothing blocked on the unread input
}

TEST_CASE("process: exit code and stderr are reported separately") {
    RunResult result = run_process({"sh", "-c", "echo out; echo err >&2; exit 3"}, {}, process_limits());
    CHECK(result.status == RunStatus::exited);
    CHECK(result.exit_code == 3);
    CHECK(result.out == "out\n");
    CHECK(result.err == "err\n");
}

TEST_CASE("process: the working directory is applied") {
    TempDir dir("process-cwd");
    RunResult result = run_process({"pwd"}, {}, process_limits(), dir.path);
    CHECK(result.out == fs::canonical(dir.path).string() + "\n");
}

TEST_CASE("process: the limits are applied as rlimits") {
    RunResult result = run_process({"sh", "-c", "ulimit -t; ulimit -v; ulimit -n; ulimit -f; ulimit -c"}, {}, Limits{});
    CHECK(result.out == "2\n524288\n64\n32768\n0\n");  // ulimit -v and -f count KiB and 512-byte blocks
}

TEST_CASE("process: a zero limit means none") {
    Limits limits;
    limits.memory_bytes = 0;
    limits.open_files = 0;
    RunResult result = run_process({"sh", "-c", "ulimit -v; ulimit -n"}, {}, limits);
    CHECK(result.out.rfind("unlimited\n", 0) == 0);
    CHECK(result.out != "unlimited\n64\n");
}

TEST_CASE("process: a missing program fails to start with a message naming it") {
    RunResult result = run_process({"/nonexistent/blockcheck-no-such-program"}, {}, process_limits());
    CHECK(result.status == RunStatus::failed_to_start);
    CHECK(result.error.find("/nonexistent/blockcheck-no-such-program") != std::string::npos);
    CHECK(result.error.find("No such file") != std::string::npos);
}

TEST_CASE("process: a missing working directory fails to start with a message naming it") {
    RunResult result = run_process({"true"}, {}, process_limits(), "/nonexistent/blockcheck-dir");
    CHECK(result.status == RunStatus::failed_to_start);
    CHECK(result.error.find("working directory '/nonexistent/blockcheck-dir'") != std::string::npos);
}

TEST_CASE("process: an empty command line fails to start") {
    CHECK(run_process({}, {}, process_limits()).status == RunStatus::failed_to_start);
}

TEST_CASE("process: an infinite loop is stopped by the CPU limit as timed_out") {
    Limits limits = process_limits();
    limits.wall_seconds = 10;  // the CPU limit must be what stops it
    RunResult result = run_hostile("infinite_loop", limits);
    CHECK(result.status == RunStatus::timed_out);
    CHECK(result.signal == SIGXCPU);
    CHECK(result.cpu_seconds >= 0.5);  // rusage may under-report a little on a busy machine
    CHECK(result.wall_seconds < limits.wall_seconds);
}

TEST_CASE("process: a sleeper is stopped by the wall clock as timed_out") {
    Limits limits = process_limits();
    limits.wall_seconds = 0.5;
    RunResult result = run_hostile("sleeper", limits);
    CHECK(result.status == RunStatus::timed_out);
    CHECK(result.wall_seconds >= 0.5);
    CHECK(result.wall_seconds < 10);  // stopped at the limit, not at the end of its sleep
    CHECK(result.cpu_seconds < 0.3);
}

TEST_CASE("process: an output flood stops at the cap with the output kept up to it") {
    Limits limits = process_limits();
    limits.output_bytes = 100000;
    RunResult result = run_hostile("output_flood", limits);
    CHECK(result.status == RunStatus::output_limit);
    CHECK(result.out.size() + result.err.size() == limits.output_bytes);
    CHECK(result.out.rfind("flood flood", 0) == 0);
}

TEST_CASE("process: a segfault is signaled with SIGSEGV") {
    RunResult result = run_hostile("segfault");
    CHECK(result.status == RunStatus::signaled);
    CHECK(result.signal == SIGSEGV);
}

TEST_CASE("process: abort is signaled with SIGABRT") {
    RunResult result = run_hostile("abort");
    CHECK(result.status == RunStatus::signaled);
    CHECK(result.signal == SIGABRT);
}

TEST_CASE("process: a stack overflow is signaled with SIGSEGV") {
    RunResult result = run_hostile("stack_overflow");
    CHECK(result.status == RunStatus::signaled);
    CHECK(result.signal == SIGSEGV);
}

TEST_CASE("process: a memory hog is stopped by the memory limit, not by a timeout") {
    // 128 MiB: touching memory costs about 3.5 ms of CPU a MiB on a VM, so at 256 MiB the hog
    // needed 0.9 s of its 1 s of CPU and a busy machine's wall clock could stop it first.
    Limits limits = process_limits();
    limits.memory_bytes = 128u << 20;
    limits.wall_seconds = 20;  // the CPU and memory limits decide, not a busy machine's wall clock
    RunResult result = run_hostile("memory_hog", limits);
    const bool crashed = result.status == RunStatus::signaled ||
                         (result.status == RunStatus::exited && result.exit_code != 0);
    CHECK(crashed);
}

// The fork storm's limits: a wall clock far beyond forking 200 children on a loaded machine, far
// below the 60 s its children sleep while holding stdout.
Limits storm_limits() {
    Limits limits = process_limits();
    limits.wall_seconds = 20;
    return limits;
}

TEST_CASE("process: a fork storm leaves no process of its group behind") {
    RunResult result = run_hostile("fork_storm", storm_limits());
    CHECK(result.status == RunStatus::exited);  // the sleeping children held stdout, yet the run ended
    std::istringstream out(result.out);
    std::string word;
    int pgid = 0;
    out >> word >> pgid;
    REQUIRE(word == "pgid");
    REQUIRE(pgid > 1);
    CHECK(living_in_group_after_settling(pgid) == 0);
}

TEST_CASE("process: a background child holding stdout does not keep the run alive") {
    RunResult result = run_process({"sh", "-c", "sleep 30 & echo started"}, {}, process_limits());
    CHECK(result.status == RunStatus::exited);
    CHECK(result.out == "started\n");  // exited, not timed_out: the 30 s sleeper did not hold the run
}

TEST_CASE("process: concurrent runs from several threads keep their own streams") {
    std::vector<std::string> inputs, outputs(8);
    for (int i = 0; i < 8; ++i) inputs.push_back("input " + std::to_string(i) + "\n");
    const std::string echo = hostile("echo").string();
    Limits sleeper_limits = process_limits();
    sleeper_limits.wall_seconds = 3;
    const std::string sleeper = hostile("sleeper").string();
    std::vector<std::thread> threads;
    RunResult slow;
    threads.emplace_back([&] { slow = run_process({sleeper}, {}, sleeper_limits); });
    std::vector<double> walls(8);
    for (int i = 0; i < 8; ++i)
        threads.emplace_back([&, i] {
            RunResult result = run_process({echo}, inputs[i], process_limits());
            outputs[i] = result.out;
            walls[i] = result.wall_seconds;
        });
    for (auto& thread : threads) thread.join();
    CHECK(outputs == inputs);
    CHECK(slow.status == RunStatus::timed_out);
    // A run's pipes must not leak into a concurrent long-running child: an echo whose pipe the
    // sleeper held would last until the sleeper is stopped at its wall limit.
    for (double wall : walls) CHECK(wall < sleeper_limits.wall_seconds);
}

TEST_CASE("process: the bwrap command line isolates and passes the program last") {
    Sandbox sandbox{"/tmp/blockcheck-w", {"/tmp/blockcheck-r"}};
    std::vector<std::string> args = sandboxed_argv({"prog", "arg"}, sandbox);
    REQUIRE(args.size() > 4);
    CHECK(args.front() == "bwrap");
    CHECK(args[args.size() - 3] == "--");
    CHECK(args[args.size() - 2] == "prog");
    CHECK(args.back() == "arg");
    auto has = [&](const std::vector<std::string>& seq) {
        return std::search(args.begin(), args.end(), seq.begin(), seq.end()) != args.end();
    };
    CHECK(has({"--unshare-all"}));
    CHECK(has({"--die-with-parent"}));
    CHECK(has({"--bind", "/tmp/blockcheck-w", "/tmp/blockcheck-w"}));
    CHECK(has({"--ro-bind", "/tmp/blockcheck-r", "/tmp/blockcheck-r"}));
    CHECK(has({"--chdir", "/tmp/blockcheck-w"}));
}

TEST_CASE("process: a sandbox with a missing folder fails to start naming it") {
    Sandbox sandbox{"/nonexistent/blockcheck-w", {}};
    RunResult result = run_process({"true"}, {}, process_limits(), {}, &sandbox);
    CHECK(result.status == RunStatus::failed_to_start);
    CHECK(result.error.find("/nonexistent/blockcheck-w") != std::string::npos);
}

TEST_CASE("process: a sandboxed program sees only its folder and cannot write outside it") {
    if (!sandbox_usable()) return;
    TempDir root("process-sandbox");
    const fs::path writable = root.path / "student", sibling = root.path / "other";
    fs::create_directories(writable);
    fs::create_directories(sibling);
    std::ofstream(sibling / "secret.txt") << "secret\n";
    std::ofstream(writable / "mine.txt") << "mine\n";
    const fs::path probe = hostile("sandbox_probe");
    Sandbox sandbox{writable, {probe.parent_path()}};

    RunResult outside = run_process({probe.string(), (sibling / "secret.txt").string(), (root.path / "escaped.txt").string()},
                                    {}, process_limits(), {}, &sandbox);
    CHECK(outside.status == RunStatus::exited);
    CHECK(outside.out == "read failed\nwrite ok\n");  // the write lands in the sandbox's private tmpfs...
    CHECK_FALSE(fs::exists(root.path / "escaped.txt"));  // ...never on the host

    RunResult system = run_process({probe.string(), "/etc/shadow", "/usr/escaped.txt"}, {}, process_limits(), {}, &sandbox);
    CHECK(system.out == "read failed\nwrite failed\n");

    RunResult inside = run_process({probe.string(), "mine.txt", "made.txt"}, {}, process_limits(), {}, &sandbox);
    CHECK(inside.out == "read ok\nwrite ok\n");
    CHECK(fs::exists(writable / "made.txt"));
}

TEST_CASE("process: a sandboxed program outside the sandbox's folders fails to start naming it") {
    TempDir dir("process-sandbox-outside");
    const fs::path echo = hostile("echo");
    Sandbox sandbox{dir.path, {}};
    RunResult result = run_process({echo.string()}, {}, process_limits(), {}, &sandbox);
    CHECK(result.status == RunStatus::failed_to_start);
    CHECK(result.error == "program '" + echo.string() + "' is outside the sandbox's folders");
}

TEST_CASE("process: a sandboxed crash is still signaled with its signal") {
    if (!sandbox_usable()) return;
    TempDir dir("process-sandbox-crash");
    const fs::path segfault = hostile("segfault");
    Sandbox sandbox{dir.path, {segfault.parent_path()}};
    RunResult result = run_process({segfault.string()}, {}, process_limits(), {}, &sandbox);
    CHECK(result.status == RunStatus::signaled);
    CHECK(result.signal == SIGSEGV);
}

TEST_CASE("process: a sandboxed fork storm ends with its run") {
    if (!sandbox_usable()) return;
    TempDir dir("process-sandbox-storm");
    const fs::path storm = hostile("fork_storm");
    Sandbox sandbox{dir.path, {storm.parent_path()}};
    RunResult result = run_process({storm.string()}, {}, storm_limits(), {}, &sandbox);
    CHECK(result.status == RunStatus::exited);  // not timed_out: the run did not wait for the sleepers
}

TEST_CASE("process: a sandboxed program does not inherit the grader's environment") {
    if (!sandbox_usable()) return;
    TempDir dir("process-sandbox-env");
    Sandbox sandbox{dir.path, {}};
    ::setenv("BLOCKCHECK_TEST_SECRET", "token", 1);
    RunResult result = run_process({"env"}, {}, process_limits(), {}, &sandbox);
    ::unsetenv("BLOCKCHECK_TEST_SECRET");
    CHECK(result.status == RunStatus::exited);
    CHECK(result.out.find("HOME=" + dir.path.string()) != std::string::npos);
    CHECK(result.out.find("BLOCKCHECK_TEST_SECRET") == std::string::npos);
}

TEST_CASE("process: every process started has a fresh session keyring, never the grader's") {
    testing::GraderKeyring grader;
    if (!grader.usable) return;
    const RunResult plain = run_process({hostile("keyring_thief").string()}, "steal\n", process_limits());
    CHECK(plain.status == RunStatus::exited);
    CHECK(plain.out.find("search krb5-ticket-of-the-TA failed: errno 126\n") != std::string::npos);  // ENOKEY
    CHECK(plain.out.find("ticket-secret-9d2e") == std::string::npos);
    if (!sandbox_usable()) return;
    TempDir dir("keyring-sandbox");
    fs::copy_file(hostile("keyring_thief"), dir.path / "thief");
    Sandbox sandbox{dir.path, {}};
    const RunResult jailed = run_process({(dir.path / "thief").string()}, "steal\n", process_limits(), {}, &sandbox);
    CHECK(jailed.status == RunStatus::exited);
    CHECK(jailed.out.find("ticket-secret-9d2e") == std::string::npos);
}
