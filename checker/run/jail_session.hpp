// A jail session: one bubblewrap jail that runs many programs one after another, each in a
// jail of its own inside it. bwrap starts once (that start is most of a run's cost); inside,
// a small trusted runner (blockcheck-jail) gives every program fresh PID, mount, IPC and
// network namespaces, fresh tmpfs folders, a fresh empty session keyring, a fresh throw-away
// uid, its own limits and the program's seccomp filter, so nothing one program does outlives
// its run or reaches the next. The first process of each program's namespaces is the runner
// executed afresh (`blockcheck-jail --init`): it holds nothing of the runner's memory or of
// earlier programs, and it stays root (a uid the program does not have), not dumpable and
// without capabilities, so the program can neither read (/proc/1/mem, /proc/1/environ) nor
// signal it. The runner itself is not dumpable, and outside every program's PID namespace.
#pragma once

#include "checker/run/process.hpp"

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockcheck {

// The runner's executable, next to the running one (blockcheck-jail in the build folder);
// empty when there is none.
std::filesystem::path jail_runner_path();

// The runner's loop (blockcheck-jail's main): reads requests on descriptor 0, runs each program,
// writes each reply on descriptor 1, until end of file. Runs as root inside bwrap with
// CAP_SYS_ADMIN, CAP_SETUID, CAP_SETGID, CAP_SETPCAP and CAP_NET_ADMIN only. Returns the exit
// code.
int serve_jail_session();

// The first process of one program's namespaces (`blockcheck-jail --init UID SCRATCH TMP`,
// executed by the runner): builds the program's view (/proc, tmpfs /scratch, /tmp and /dev/shm
// with the mount options given, the program at /exercise, the runner's folders gone), brings
// up loopback, starts the program as `uid` under the seccomp filter, drops its own
// capabilities and waits. Returns the program's exit code, or 128 + the signal that ended it,
// as bwrap's init does.
int run_program_init(unsigned uid, const std::string& scratch_options, const std::string& tmp_options);

// The grader's side of one session. Not thread-safe: one session serves one thread.
class JailSession {
public:
    // Starts bwrap with `bwrap_argv` (the jail's command line, ending in the runner), in a fresh
    // session keyring. Null when it cannot start. `program` other than bwrap, and `uid` (nonzero:
    // taken for good first, take_uid), serve a resident compiler's session (the clang service,
    // checker/compile/compile_service.cpp), which speaks the same protocol.
    static std::unique_ptr<JailSession> start(const std::vector<std::string>& bwrap_argv, unsigned uid = 0,
                                              const std::string& program = "/usr/bin/bwrap");
    ~JailSession();
    JailSession(const JailSession&) = delete;
    JailSession& operator=(const JailSession&) = delete;

    // Runs `binary` as `uid` with `input` on stdin under `limits`, as its own jail would: the
    // program is /exercise, its working folder /scratch (a tmpfs of limits.file_bytes), /tmp and
    // /dev/shm private tmpfs, its parent the first process of its own PID namespace, its network
    // a loopback of its own. A status is
    // reported as bwrap reports it (128 + signal for a signal). Nullopt when the session itself
    // failed (then it is closed): run the program elsewhere.
    std::optional<RunResult> run(const std::filesystem::path& binary, std::string_view input, const Limits& limits,
                                 unsigned uid);

    // Sends one encoded request (detail/jail_protocol.hpp) and waits for its reply, at most
    // `wall_seconds` and a grace; nullopt when the other end failed (then it is closed).
    std::optional<RunResult> exchange(const std::string& request, double wall_seconds);
    // The first process started (bwrap, or `program`); -1 once closed.
    pid_t pid() const { return pid_; }
    // Whether that process still runs, asked without reaping it (close() reaps): bwrap's
    // --die-with-parent ends it with the thread that started it, not only with the process.
    bool running() const;

private:
    JailSession(pid_t pid, int socket) : pid_(pid), socket_(socket) {}
    void close();

    pid_t pid_ = -1;
    int socket_ = -1;
};

}  // namespace blockcheck
