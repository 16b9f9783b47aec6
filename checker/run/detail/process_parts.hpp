// The parts of run_process (process.hpp), one file a job: the child between fork and exec
// (process_child.cpp), the parent watching the running program (process_supervisor.cpp), the
// bwrap command line and its checks (process_sandbox.cpp); process.cpp puts them together.
// Internal to checker/run.
#pragma once

#include "checker/common/fd.hpp"
#include "checker/run/process.hpp"

#include <linux/filter.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace blockcheck::process_parts {

using Clock = std::chrono::steady_clock;

[[noreturn]] void throw_errno(const std::string& what);

// ---------------------------------------------------------------------------------------------
// The child side (process_child.cpp). Between fork and exec only async-signal-safe calls are
// allowed (the parent may have other threads), so everything is prepared before fork.

// Steps the child reports when one fails, with errno, through the error pipe.
enum ChildStep : int { step_setsid, step_stdio, step_chdir, step_rlimit, step_keyring, step_uid, step_seccomp, step_exec };

struct Rlimit {
    int resource;
    rlim_t soft, hard;
};

struct ChildPlan {
    std::vector<char*> argv;  // null-terminated
    char** environment = nullptr;  // null: the grader's own
    int descriptor_3 = -1;
    unsigned uid = 0;  // nonzero: taken for good before exec
    const std::vector<sock_filter>* seccomp = nullptr;  // installed last before exec
    const char* working_dir = nullptr;
    std::vector<Rlimit> rlimits;
    int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1, error_fd = -1;
};

// Runs in the forked child; never returns.
[[noreturn]] void child_main(const ChildPlan& plan);

// The rlimits of `limits` (RLIMIT_CPU in whole seconds: SIGXCPU at the soft limit, SIGKILL one
// second later).
std::vector<Rlimit> rlimits_for(const Limits& limits);

std::string describe_child_failure(ChildStep step, int error, const std::vector<std::string>& argv,
                                   const std::filesystem::path& working_dir);

// ---------------------------------------------------------------------------------------------
// The parent side (process_supervisor.cpp).

enum class StopReason { none, timed_out, output_limit };

struct Reaped {
    int status = 0;
    double cpu_seconds = 0;
};

// The group (and with it everything the program forked without leaving the group) dies.
void kill_group(pid_t pgid);
Reaped reap(pid_t pid);
// Waits for exec: end of file on the error pipe means it succeeded; a report means a step failed.
bool child_started(int error_fd, std::array<int, 2>& report);

// Feeds stdin, collects stdout and stderr, enforces the wall clock and the output cap, until the
// program exits and its output is drained, or a limit stops it.
StopReason supervise(pid_t pid, Fd in, Fd out, Fd err, std::string_view stdin_text, const Limits& limits,
                     Clock::time_point start, RunResult& result);

// ---------------------------------------------------------------------------------------------
// The sandbox (process_sandbox.cpp).

// Problems bwrap would only report as the program's own exit code 1, said precisely instead;
// empty when there are none.
std::string check_sandbox(const Sandbox& sandbox, const std::string& program);

}  // namespace blockcheck::process_parts
