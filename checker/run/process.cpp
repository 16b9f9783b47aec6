// Running an untrusted program: fork + execvp with rlimits, a poll() loop that feeds stdin,
// collects stdout/stderr, enforces the wall clock and the output cap, and kills the process
// group at the end. No global state besides the bwrap probe, so several threads may run at once.
#include "checker/run/process.hpp"

#include "checker/common/fd.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <system_error>
#include <utility>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

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

namespace {

using Clock = std::chrono::steady_clock;

// After the program's leader exits, how long output still held by stray pipe ends is awaited.
constexpr auto drain_grace = std::chrono::milliseconds(200);

struct Pipe {
    Fd read, write;
};

[[noreturn]] void throw_errno(const std::string& what) { throw std::system_error(errno, std::generic_category(), what); }

// A pipe whose both ends close on exec.
Pipe make_pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) < 0) throw_errno("cannot create a pipe");
    return {Fd(fds[0]), Fd(fds[1])};
}

void set_nonblocking(int fd) {
    int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) throw_errno("cannot make a pipe non-blocking");
}

double seconds_between(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

// ---------------------------------------------------------------------------------------------
// The child side. Between fork and exec only async-signal-safe calls are allowed (the parent may
// have other threads), so everything is prepared before fork.

// Steps the child reports when one fails, with errno, through the error pipe.
enum ChildStep : int { step_setsid, step_stdio, step_chdir, step_rlimit, step_exec };

struct Rlimit {
    int resource;
    rlim_t soft, hard;
};

struct ChildPlan {
    std::vector<char*> argv;  // null-terminated
    char** environment = nullptr;  // null: the grader's own
    int descriptor_3 = -1;
    int (*entry)(void*) = nullptr;
    void* entry_context = nullptr;
    const char* working_dir = nullptr;
    std::vector<Rlimit> rlimits;
    int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1, error_fd = -1;
};

[[noreturn]] void child_fail(int error_fd, ChildStep step) {
    int report[2] = {step, errno};
    ssize_t ignored = ::write(error_fd, report, sizeof report);
    (void)ignored;
    ::_exit(127);
}

// Default dispositions and an empty mask: ignored signals would otherwise survive exec.
void reset_signals() {
    struct sigaction action {};
    action.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &action, nullptr);
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

// Pipes on 0, 1, 2; every other descriptor (including ones other threads opened without
// O_CLOEXEC) closes on exec.
bool redirect_stdio(const ChildPlan& plan) {
    if (::dup2(plan.stdin_fd, 0) < 0 || ::dup2(plan.stdout_fd, 1) < 0 || ::dup2(plan.stderr_fd, 2) < 0) return false;
    ::syscall(SYS_close_range, 3u, ~0u, CLOSE_RANGE_CLOEXEC);  // best effort on old kernels
    if (plan.descriptor_3 >= 0 && plan.descriptor_3 != 3 && ::dup2(plan.descriptor_3, 3) < 0) return false;
    if (plan.descriptor_3 == 3 && ::fcntl(3, F_SETFD, 0) < 0) return false;
    return true;
}

// Lowers each limit, never above the current hard limit (raising it would need privileges).
bool apply_rlimits(const std::vector<Rlimit>& limits) {
    for (const Rlimit& limit : limits) {
        rlimit current{};
        if (::getrlimit(limit.resource, &current) < 0) return false;
        rlimit wanted{std::min(limit.soft, current.rlim_max), std::min(limit.hard, current.rlim_max)};
        if (::setrlimit(limit.resource, &wanted) < 0) return false;
    }
    return true;
}

[[noreturn]] void child_main(const ChildPlan& plan) {
    if (::setsid() < 0) child_fail(plan.error_fd, step_setsid);
    reset_signals();
    if (!redirect_stdio(plan)) child_fail(plan.error_fd, step_stdio);
    if (plan.working_dir && ::chdir(plan.working_dir) < 0) child_fail(plan.error_fd, step_chdir);
    if (!apply_rlimits(plan.rlimits)) child_fail(plan.error_fd, step_rlimit);
    if (plan.entry) {
        // No exec closes the parent's pipe ends here: close every descriptor above 2 (the error
        // pipe too, so the parent reads end of file: started).
        if (::syscall(SYS_close_range, 3u, ~0u, 0u) != 0) child_fail(plan.error_fd, step_stdio);
        ::_exit(plan.entry(plan.entry_context));
    }
    if (plan.environment) {
        ::execvpe(plan.argv[0], plan.argv.data(), plan.environment);
    } else {
        ::execvp(plan.argv[0], plan.argv.data());
    }
    child_fail(plan.error_fd, step_exec);
}

// 0 (or a negative count) means no limit.
rlim_t to_rlim(std::size_t value) { return value == 0 ? RLIM_INFINITY : static_cast<rlim_t>(value); }
rlim_t to_rlim(int count) { return count <= 0 ? RLIM_INFINITY : static_cast<rlim_t>(count); }

// RLIMIT_CPU is whole seconds: SIGXCPU at the soft limit, SIGKILL one second later.
std::vector<Rlimit> rlimits_for(const Limits& limits) {
    const auto cpu = static_cast<rlim_t>(std::max(1.0, std::ceil(limits.cpu_seconds)));
    return {
        {RLIMIT_CPU, cpu, cpu + 1},
        {RLIMIT_AS, to_rlim(limits.memory_bytes), to_rlim(limits.memory_bytes)},
        {RLIMIT_FSIZE, to_rlim(limits.file_bytes), to_rlim(limits.file_bytes)},
        {RLIMIT_NOFILE, to_rlim(limits.open_files), to_rlim(limits.open_files)},
        // Ignored for root; see Limits::processes.
        {RLIMIT_NPROC, to_rlim(limits.processes), to_rlim(limits.processes)},
        {RLIMIT_CORE, 0, 0},  // a crash must not spend seconds writing a core dump
    };
}

std::string describe_child_failure(ChildStep step, int error, const std::vector<std::string>& argv,
                                   const std::filesystem::path& working_dir) {
    const std::string reason = std::strerror(error);
    switch (step) {
        case step_setsid: return "cannot start a new session for '" + argv[0] + "': " + reason;
        case step_stdio: return "cannot redirect the standard streams of '" + argv[0] + "': " + reason;
        case step_chdir: return "cannot enter working directory '" + working_dir.string() + "': " + reason;
        case step_rlimit: return "cannot set resource limits for '" + argv[0] + "': " + reason;
        case step_exec: return "cannot execute '" + argv[0] + "': " + reason;
    }
    return "cannot start '" + argv[0] + "': " + reason;
}

// ---------------------------------------------------------------------------------------------
// The parent side.

// Blocks SIGPIPE in the calling thread for the run, so writing to a program that closed its
// stdin gives EPIPE instead of killing the grader; a SIGPIPE raised that way is discarded.
class SigpipeBlock {
public:
    SigpipeBlock() {
        sigset_t pipe_only;
        ::sigemptyset(&pipe_only);
        ::sigaddset(&pipe_only, SIGPIPE);
        ::pthread_sigmask(SIG_BLOCK, &pipe_only, &previous_);
    }
    ~SigpipeBlock() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
    void discard_pending() {
        sigset_t pipe_only;
        ::sigemptyset(&pipe_only);
        ::sigaddset(&pipe_only, SIGPIPE);
        timespec zero{};
        while (::sigtimedwait(&pipe_only, nullptr, &zero) == SIGPIPE) {
        }
    }

private:
    sigset_t previous_{};
};

int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
    return -1;
#endif
}

// The group (and with it everything the program forked without leaving the group) dies.
void kill_group(pid_t pgid) { ::kill(-pgid, SIGKILL); }

// Whether the child has exited, without reaping it (the zombie keeps the group id reserved).
bool has_exited(pid_t pid) {
    siginfo_t info{};
    return ::waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

struct Reaped {
    int status = 0;
    double cpu_seconds = 0;
};

Reaped reap(pid_t pid) {
    Reaped reaped;
    rusage usage{};
    while (::wait4(pid, &reaped.status, 0, &usage) < 0 && errno == EINTR) {
    }
    auto seconds = [](timeval t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
    reaped.cpu_seconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    return reaped;
}

// Waits for exec: EOF on the error pipe means it succeeded; a report means a step failed.
bool child_started(int error_fd, std::array<int, 2>& report) {
    std::size_t got = 0;
    auto* bytes = reinterpret_cast<char*>(report.data());
    while (got < sizeof report) {
        ssize_t n = ::read(error_fd, bytes + got, sizeof report - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
    }
    return got < sizeof report;
}

enum class StopReason { none, timed_out, output_limit };

// The running program's pipes and what came out of them.
class Supervisor {
public:
    Supervisor(pid_t pid, Fd in, Fd out, Fd err, std::string_view stdin_text, const Limits& limits,
               Clock::time_point start)
        : pid_(pid), in_(std::move(in)), out_(std::move(out)), err_(std::move(err)), pending_(stdin_text),
          limits_(limits), deadline_(start + std::chrono::duration_cast<Clock::duration>(
                                                 std::chrono::duration<double>(limits.wall_seconds))),
          pidfd_(open_pidfd(pid)) {
        set_nonblocking(in_.get());
        set_nonblocking(out_.get());
        set_nonblocking(err_.get());
        if (pending_.empty()) in_.reset();
    }

    // Runs until the program exits and its output is drained, or a limit stops it.
    StopReason supervise(RunResult& result);

private:
    int poll_timeout_ms(Clock::time_point now) const;
    void feed_stdin();
    void drain(Fd& fd, std::string& into, RunResult& result);
    void on_exit();

    pid_t pid_;
    Fd in_, out_, err_;
    std::string_view pending_;
    const Limits& limits_;
    Clock::time_point deadline_;
    Fd pidfd_;
    SigpipeBlock sigpipe_;
    bool exited_ = false;
    Clock::time_point drain_until_{};
    StopReason stop_ = StopReason::none;
};

int Supervisor::poll_timeout_ms(Clock::time_point now) const {
    auto until = exited_ ? std::min(deadline_, drain_until_) : deadline_;
    auto ms = std::chrono::ceil<std::chrono::milliseconds>(until - now).count();
    if (!exited_ && !pidfd_) ms = std::min<long long>(ms, 5);  // no pidfd: poll the child's state
    return static_cast<int>(std::clamp<long long>(ms, 0, 60'000));
}

void Supervisor::feed_stdin() {
    while (!pending_.empty()) {
        ssize_t n = ::write(in_.get(), pending_.data(), std::min<std::size_t>(pending_.size(), 1 << 16));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return;
        if (n < 0) {  // EPIPE: the program closed its stdin or exited; the rest is dropped
            sigpipe_.discard_pending();
            break;
        }
        pending_.remove_prefix(static_cast<std::size_t>(n));
    }
    in_.reset();
}

// Reads what is available (at most 1 MiB, so the clock is checked between floods); past the cap
// keeps exactly output_bytes in total and stops the run.
void Supervisor::drain(Fd& fd, std::string& into, RunResult& result) {
    char buffer[1 << 16];
    for (int chunk = 0; chunk < 16; ++chunk) {
        ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return;
        if (n <= 0) return fd.reset();  // end of file
        const std::size_t used = result.out.size() + result.err.size();
        const std::size_t cap = limits_.output_bytes == 0 ? SIZE_MAX : limits_.output_bytes;
        const std::size_t room = cap > used ? cap - used : 0;
        into.append(buffer, std::min(room, static_cast<std::size_t>(n)));
        if (static_cast<std::size_t>(n) > room) {
            stop_ = StopReason::output_limit;
            return;
        }
    }
}

// The leader is gone: whatever it left in its group goes too; stray pipe holders get a grace.
void Supervisor::on_exit() {
    exited_ = true;
    kill_group(pid_);
    drain_until_ = Clock::now() + drain_grace;
    in_.reset();
}

StopReason Supervisor::supervise(RunResult& result) {
    for (;;) {
        const auto now = Clock::now();
        if (!exited_ && now >= deadline_) return StopReason::timed_out;
        if (exited_ && (now >= drain_until_ || now >= deadline_ || (!out_ && !err_))) return StopReason::none;
        std::array<pollfd, 4> fds{};
        std::size_t count = 0;
        auto watch = [&](const Fd& fd, short events) { fds[count++] = {fd ? fd.get() : -1, events, 0}; };
        watch(in_, POLLOUT);
        watch(out_, POLLIN);
        watch(err_, POLLIN);
        fds[count++] = {exited_ ? -1 : pidfd_.get(), POLLIN, 0};  // readable once the child exits
        int ready = ::poll(fds.data(), count, poll_timeout_ms(now));
        if (ready < 0 && errno != EINTR) throw_errno("poll failed");
        if (ready < 0) continue;
        if (fds[0].revents) feed_stdin();
        if (fds[1].revents) drain(out_, result.out, result);
        if (fds[2].revents) drain(err_, result.err, result);
        if (stop_ != StopReason::none) return stop_;
        if (!exited_ && (fds[3].revents || (!pidfd_ && has_exited(pid_)))) on_exit();
    }
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

// Whether `path` is `dir` or lies below it (both absolute and normal).
bool is_within(const std::filesystem::path& path, const std::filesystem::path& dir) {
    auto [dir_end, path_at] = std::mismatch(dir.begin(), dir.end(), path.begin(), path.end());
    return dir_end == dir.end() || (std::next(dir_end) == dir.end() && dir_end->empty());
}

std::filesystem::path absolute_normal(const std::filesystem::path& path) {
    return std::filesystem::absolute(path).lexically_normal();
}

// Problems bwrap would only report as the program's own exit code 1: said precisely instead.
std::string check_sandbox(const Sandbox& sandbox, const std::string& program) {
    std::error_code ec;
    if (!std::filesystem::is_directory(sandbox.writable_dir, ec))
        return "sandbox writable folder '" + sandbox.writable_dir.string() + "' is not a directory";
    for (const auto& dir : sandbox.readonly_dirs)
        if (!std::filesystem::exists(dir, ec)) return "sandbox read-only folder '" + dir.string() + "' does not exist";
    if (program.find('/') == std::string::npos) return {};  // found in the sandbox's PATH
    const auto path = absolute_normal(program);
    if (::access(path.c_str(), X_OK) < 0) return "cannot execute '" + program + "': " + std::strerror(errno);
    bool visible = is_within(path, absolute_normal(sandbox.writable_dir)) || is_within(path, "/usr");
    for (const auto& dir : sandbox.readonly_dirs) visible = visible || is_within(path, absolute_normal(dir));
    if (!visible) return "program '" + program + "' is outside the sandbox's folders";
    return {};
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
                   options.entry,
                   options.entry_context,
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
        Supervisor supervisor(pid, std::move(in.write), std::move(out.read), std::move(err.read), stdin_text, limits,
                              start);
        stop = supervisor.supervise(result);
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

// How the host's top-level system folders appear inside the sandbox: symlinks stay symlinks
// (Debian's merged /usr), real folders are bound read-only.
void add_system_dirs(std::vector<std::string>& args) {
    for (const char* dir : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
        std::error_code ec;
        auto status = std::filesystem::symlink_status(dir, ec);
        if (ec) continue;
        if (std::filesystem::is_symlink(status)) {
            args.insert(args.end(), {"--symlink", std::filesystem::read_symlink(dir, ec).string(), dir});
        } else if (std::filesystem::is_directory(status)) {
            args.insert(args.end(), {"--ro-bind", dir, dir});
        }
    }
    // Only what the dynamic loader and a few tools need from /etc (not passwords or keys).
    for (const char* file : {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
                             "/etc/localtime"})
        args.insert(args.end(), {"--ro-bind-try", file, file});
}

std::size_t depth(const std::filesystem::path& path) {
    return static_cast<std::size_t>(std::distance(path.begin(), path.end()));
}

}  // namespace

std::vector<std::string> sandboxed_argv(const std::vector<std::string>& argv, const Sandbox& sandbox) {
    std::vector<std::string> args{"bwrap",     "--unshare-all", "--die-with-parent", "--new-session",
                                  "--cap-drop", "ALL",          "--ro-bind",         "/usr",
                                  "/usr"};
    add_system_dirs(args);
    args.insert(args.end(), {"--proc", "/proc", "--dev", "/dev", "--size", std::to_string(64u << 20), "--tmpfs", "/tmp"});
    // Parents are mounted before the folders inside them, so nesting works either way round.
    const auto writable = absolute_normal(sandbox.writable_dir);
    std::vector<std::pair<std::filesystem::path, bool>> binds{{writable, true}};
    for (const auto& dir : sandbox.readonly_dirs) binds.emplace_back(absolute_normal(dir), false);
    std::stable_sort(binds.begin(), binds.end(), [](const auto& a, const auto& b) { return depth(a.first) < depth(b.first); });
    for (const auto& [dir, rw] : binds) args.insert(args.end(), {rw ? "--bind" : "--ro-bind", dir.string(), dir.string()});
    // A clean environment: the grader's variables (tokens, paths) are none of the program's business.
    args.insert(args.end(), {"--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", writable.string(),
                             "--setenv", "TMPDIR", "/tmp", "--chdir", writable.string(), "--"});
    args.insert(args.end(), argv.begin(), argv.end());
    return args;
}

bool Sandbox::available() {
    static const bool works = [] {
        try {
            Sandbox probe{std::filesystem::temp_directory_path(), {}};
            Limits limits;
            limits.wall_seconds = 10;
            RunResult result = run_process({"true"}, {}, limits, {}, &probe);
            return result.status == RunStatus::exited && result.exit_code == 0;
        } catch (...) {
            return false;
        }
    }();
    return works;
}

RunResult run_process(const std::vector<std::string>& argv, std::string_view stdin_text, const Limits& limits,
                      const std::filesystem::path& working_dir, const Sandbox* sandbox, const StartOptions& start) {
    if (argv.empty() || argv[0].empty()) return failed("cannot run an empty command line");
    const bool sandboxed = sandbox && !sandbox->writable_dir.empty();
    if (sandboxed) {
        if (std::string problem = check_sandbox(*sandbox, argv[0]); !problem.empty()) return failed(problem);
    }
    try {
        StartOptions options = start;
        options.clean_environment = options.clean_environment || sandboxed;
        return sandboxed ? run_checked(sandboxed_argv(argv, *sandbox), stdin_text, limits, {}, true, options)
                         : run_checked(argv, stdin_text, limits, working_dir, false, options);
    } catch (const std::exception& error) {
        return failed(error.what());
    }
}

}  // namespace blockcheck
