// The parent side of run_process: waiting for exec, then a poll() loop that feeds stdin,
// collects stdout and stderr, enforces the wall clock and the output cap, and notices the
// program's exit (through a pidfd where there is one); then the group is killed and reaped.
#include "checker/run/detail/process_parts.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <utility>

namespace blockcheck::process_parts {

namespace {

// After the program's leader exits, how long output still held by stray pipe ends is awaited.
constexpr auto drain_grace = std::chrono::milliseconds(200);

void set_nonblocking(int fd) {
    int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) throw_errno("cannot make a pipe non-blocking");
}

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

// Whether the child has exited, without reaping it (the zombie keeps the group id reserved).
bool has_exited(pid_t pid) {
    siginfo_t info{};
    return ::waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

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

}  // namespace

void kill_group(pid_t pgid) { ::kill(-pgid, SIGKILL); }

Reaped reap(pid_t pid) {
    Reaped reaped;
    rusage usage{};
    while (::wait4(pid, &reaped.status, 0, &usage) < 0 && errno == EINTR) {
    }
    auto seconds = [](timeval t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
    reaped.cpu_seconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    return reaped;
}

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

StopReason supervise(pid_t pid, Fd in, Fd out, Fd err, std::string_view stdin_text, const Limits& limits,
                     Clock::time_point start, RunResult& result) {
    Supervisor supervisor(pid, std::move(in), std::move(out), std::move(err), stdin_text, limits, start);
    return supervisor.supervise(result);
}

}  // namespace blockcheck::process_parts
