// Running an untrusted program: fork (or clone into new namespaces), the child's preparation
// (process_child.cpp), the parent's supervision (process_supervisor.cpp), and the status
// decoded. No global state besides the bwrap probe (process_sandbox.cpp), so several threads
// may run at once.
#include "checker/run/process.hpp"

#include "checker/run/detail/process_parts.hpp"
#include "checker/run/seccomp_filter.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <utility>

namespace blockcheck {

std::string_view to_string(RunStatus status) {
    switch (status) {
        case RunStatus::exited: return "exited";
        case RunStatus::signaled: return "signaled";
        case RunStatus::timed_out: return "timed_out";
        case RunStatus::output_limit: return "output_limit";
        case RunStatus::failed_to_start: return "failed_to_start";
    }
    return "unknown";
}

namespace process_parts {

namespace {

struct Pipe {
    Fd read, write;
};

// A pipe whose both ends close on exec.
Pipe make_pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) < 0) throw_errno("cannot create a pipe");
    return {Fd(fds[0]), Fd(fds[1])};
}

double seconds_between(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

// Decodes the wait status; CPU-limit deaths (SIGXCPU at the soft limit, SIGKILL at the hard one)
// count as timeouts. bwrap reports a signal-killed program as exit code 128 + signal.
void classify(RunResult& result, int status, const Limits& limits, bool sandboxed) {
    if (WIFEXITED(status)) {
        result.status = RunStatus::exited;
        result.exit_code = WEXITSTATUS(status);
        if (sandboxed && result.exit_code > 128 && result.exit_code - 128 < NSIG) {
            result.status = RunStatus::signaled;
            result.signal = result.exit_code - 128;
        }
    } else if (WIFSIGNALED(status)) {
        result.status = RunStatus::signaled;
        result.signal = WTERMSIG(status);
    }
    const bool cpu_limit = result.signal == SIGXCPU ||
                           (result.signal == SIGKILL && result.cpu_seconds >= std::ceil(limits.cpu_seconds));
    if (result.status == RunStatus::signaled && cpu_limit) result.status = RunStatus::timed_out;
}

std::vector<char*> c_argv(const std::vector<std::string>& argv) {
    std::vector<char*> pointers;
    for (const std::string& arg : argv) pointers.push_back(const_cast<char*>(arg.c_str()));
    pointers.push_back(nullptr);
    return pointers;
}

// fork(), or with namespaces a clone that starts in new ones (like fork: the child continues
// here on a copy of the stack).
pid_t fork_into(unsigned long namespaces) {
    if (namespaces == 0) return ::fork();
    return static_cast<pid_t>(::syscall(SYS_clone, SIGCHLD | namespaces, nullptr, nullptr, nullptr, 0));
}

RunResult failed(std::string error) {
    RunResult result;
    result.status = RunStatus::failed_to_start;
    result.error = std::move(error);
    return result;
}

RunResult run_checked(const std::vector<std::string>& argv, std::string_view stdin_text, const Limits& limits,
                      const std::filesystem::path& working_dir, bool sandboxed, const StartOptions& options) {
    const auto start = Clock::now();
    Pipe in = make_pipe(), out = make_pipe(), err = make_pipe(), report = make_pipe();
    if (options.descriptor_3 >= 0 && report.write.get() == 3) {  // descriptor 3 is taken in the child: move the report
        Fd moved(::fcntl(3, F_DUPFD_CLOEXEC, 4));
        if (!moved) throw_errno("cannot move a pipe");
        report.write = std::move(moved);
    }
    const std::string dir = working_dir.string();
    static char clean_path[] = "PATH=/usr/bin:/bin";
    char* clean_environment[] = {clean_path, nullptr};
    ChildPlan plan{c_argv(argv),
                   options.clean_environment ? clean_environment : nullptr,
                   options.descriptor_3,
                   options.uid,
                   options.program_filter ? &program_seccomp_filter() : nullptr,
                   dir.empty() ? nullptr : dir.c_str(),
                   rlimits_for(limits),
                   in.read.get(),
                   out.write.get(),
                   err.write.get(),
                   report.write.get()};
    const pid_t pid = fork_into(options.namespaces);
    if (pid < 0) throw_errno("cannot fork to run '" + argv[0] + "'");
    if (pid == 0) child_main(plan);
    in.read.reset();
    out.write.reset();
    err.write.reset();
    report.write.reset();

    std::array<int, 2> failure{};
    if (!child_started(report.read.get(), failure)) {
        reap(pid);
        return failed(describe_child_failure(static_cast<ChildStep>(failure[0]), failure[1], argv, working_dir));
    }
    RunResult result;
    StopReason stop = StopReason::none;
    try {
        stop = supervise(pid, std::move(in.write), std::move(out.read), std::move(err.read), stdin_text, limits, start,
                         result);
    } catch (...) {
        kill_group(pid);
        reap(pid);
        throw;
    }
    kill_group(pid);
    const Reaped reaped = reap(pid);
    result.wall_seconds = seconds_between(start, Clock::now());
    result.cpu_seconds = reaped.cpu_seconds;
    classify(result, reaped.status, limits, sandboxed);
    if (stop == StopReason::timed_out) result.status = RunStatus::timed_out;
    if (stop == StopReason::output_limit) result.status = RunStatus::output_limit;
    return result;
}

}  // namespace

}  // namespace process_parts

RunResult run_process(const std::vector<std::string>& argv, std::string_view stdin_text, const Limits& limits,
                      const std::filesystem::path& working_dir, const Sandbox* sandbox, const StartOptions& start) {
    if (argv.empty() || argv[0].empty()) return process_parts::failed("cannot run an empty command line");
    const bool sandboxed = sandbox && !sandbox->writable_dir.empty();
    if (sandboxed) {
        if (std::string problem = process_parts::check_sandbox(*sandbox, argv[0]); !problem.empty())
            return process_parts::failed(problem);
    }
    try {
        StartOptions options = start;
        options.clean_environment = options.clean_environment || sandboxed;
        return sandboxed ? process_parts::run_checked(sandboxed_argv(argv, *sandbox), stdin_text, limits, {}, true, options)
                         : process_parts::run_checked(argv, stdin_text, limits, working_dir, false, options);
    } catch (const std::exception& error) {
        return process_parts::failed(error.what());
    }
}

}  // namespace blockcheck
