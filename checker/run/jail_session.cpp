// The grader's side of a jail session: bwrap started once with the runner inside, one socket to
// it, and one request and reply a program.
#include "checker/run/jail_session.hpp"

#include "checker/common/files.hpp"
#include "checker/run/detail/jail_protocol.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

namespace blockcheck {

namespace fs = std::filesystem;

namespace {

// How long a reply may take beyond the program's own wall clock (the runner's start and the
// drain of stray pipe holders) before the session counts as broken.
constexpr auto reply_grace = std::chrono::seconds(10);

}  // namespace

fs::path jail_runner_path() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    const fs::path runner = self.parent_path() / "blockcheck-jail";
    return ::access(runner.c_str(), X_OK) == 0 ? runner : fs::path{};
}

std::unique_ptr<JailSession> JailSession::start(const std::vector<std::string>& bwrap_argv, unsigned uid,
                                               const std::string& program) {
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) return nullptr;
    std::vector<char*> argv;
    for (const std::string& arg : bwrap_argv) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    static char clean_path[] = "PATH=/usr/bin:/bin";
    char* environment[] = {clean_path, nullptr};
    const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    const pid_t pid = ::fork();
    if (pid == 0) {  // after fork: system calls only
        sigset_t none;
        ::sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        if (::dup2(pair[1], 0) < 0 || ::dup2(pair[1], 1) < 0 || (null_fd >= 0 && ::dup2(null_fd, 2) < 0)) ::_exit(127);
        ::syscall(SYS_close_range, 3u, ~0u, CLOSE_RANGE_CLOEXEC);
        if (!join_fresh_session_keyring()) ::_exit(127);
        if (uid != 0 && !take_uid(uid)) ::_exit(127);
        ::execve(program.c_str(), argv.data(), environment);
        ::_exit(127);
    }
    if (null_fd >= 0) ::close(null_fd);
    ::close(pair[1]);
    if (pid < 0) {
        ::close(pair[0]);
        return nullptr;
    }
    return std::unique_ptr<JailSession>(new JailSession(pid, pair[0]));
}

JailSession::~JailSession() { close(); }

bool JailSession::running() const {
    if (pid_ <= 0) return false;
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return false;
    return info.si_pid == 0;
}

void JailSession::close() {
    if (socket_ >= 0) ::close(socket_);  // the runner reads end of file and exits
    socket_ = -1;
    if (pid_ > 0) {
        ::kill(pid_, SIGKILL);  // bwrap's children die with it (--die-with-parent)
        while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    pid_ = -1;
}

std::optional<RunResult> JailSession::run(const fs::path& binary, std::string_view input, const Limits& limits,
                                          unsigned uid) {
    if (socket_ < 0) return std::nullopt;
    jail_protocol::Request request;
    request.uid = uid;
    request.limits = limits;
    auto bytes = read_file_if_readable(binary);
    if (!bytes) return std::nullopt;
    request.binary = std::move(*bytes);
    request.input = std::string(input);
    return exchange(jail_protocol::encode(request), limits.wall_seconds);
}

std::optional<RunResult> JailSession::exchange(const std::string& request, double wall_seconds) {
    if (socket_ < 0) return std::nullopt;
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(wall_seconds)) +
                          reply_grace;
    std::optional<RunResult> reply;
    if (jail_protocol::send_all(socket_, request)) reply = jail_protocol::read_reply(socket_, deadline);
    if (!reply) close();
    return reply;
}

}  // namespace blockcheck
