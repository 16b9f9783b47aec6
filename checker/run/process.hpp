// Running an untrusted program: resource limits, a wall clock, an output cap, and optional
// isolation with bubblewrap. Linux only.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace blockcheck {

// Limits applied to the program (and, where a limit is per process, to each process it starts).
// A zero memory_bytes, output_bytes, file_bytes, open_files or processes means no limit; the
// times must be positive.
struct Limits {
    double cpu_seconds = 2;                   // RLIMIT_CPU, rounded up to whole seconds
    double wall_seconds = 5;                  // the whole process group is killed after this
    std::size_t memory_bytes = 512u << 20;    // RLIMIT_AS
    std::size_t output_bytes = 1u << 20;      // stdout+stderr kept; more -> output_limit, group killed
    std::size_t file_bytes = 16u << 20;       // RLIMIT_FSIZE
    int open_files = 64;                      // RLIMIT_NOFILE
    // RLIMIT_NPROC. It counts every process of the real user, not only this program's (so a user
    // already running more cannot even start bwrap under it), and the kernel ignores it for root
    // (CAP_SYS_RESOURCE/CAP_SYS_ADMIN): as root only the wall clock, the final group kill and the
    // sandbox's PID namespace contain a fork storm; nothing caps how many processes it makes.
    int processes = 64;
};

enum class RunStatus { exited, signaled, timed_out, output_limit, failed_to_start };

// "exited", "signaled", ... for messages and JSON.
std::string_view to_string(RunStatus status);

struct RunResult {
    RunStatus status = RunStatus::failed_to_start;
    int exit_code = 0;  // when exited
    int signal = 0;     // when signaled (or the signal that ended a timed-out run)
    std::string out, err;
    double wall_seconds = 0, cpu_seconds = 0;
    std::string error;  // why it failed to start
};

// Optional isolation with bubblewrap; an empty `writable_dir` means none.
struct Sandbox {
    std::filesystem::path writable_dir;                // the only writable folder (same path inside), also the working dir
    std::vector<std::filesystem::path> readonly_dirs;  // extra folders visible read-only (at the same path)
    // bwrap exists and works here; probed once per process by running `bwrap ... true`.
    static bool available();
};

// How the first process starts, besides its command line and limits. Every process started
// joins a fresh, empty session keyring first: none of the grader's keys (Docker, Kubernetes and
// pam_keyinit logins give it one) is reachable from a compiler or a program.
struct StartOptions {
    // Only PATH=/usr/bin:/bin in its environment, so that a sandbox's own processes (bwrap's
    // init inside the jail, readable at /proc/1/environ there) hold none of the grader's variables.
    bool clean_environment = false;
    // Given to the process as descriptor 3 (for bwrap's --seccomp 3); -1: none. Every other
    // descriptor besides 0, 1 and 2 is closed.
    int descriptor_3 = -1;
    // CLONE_NEW* flags: the first process starts in these new namespaces (it needs the privilege
    // to create them); 0: the caller's. With CLONE_NEWPID it is that namespace's first process,
    // and everything in it dies with it.
    unsigned long namespaces = 0;
    // Nonzero: the process takes this uid (and gid) for good before exec (take_uid; the caller
    // must be root).
    unsigned uid = 0;
    // The program's seccomp filter (seccomp_filter.hpp) installed last before exec, with
    // no_new_privs. Not for bwrap, which must create namespaces: give it the filter on descriptor 3.
    bool program_filter = false;
};

// The calling process leaves its session keyring for a fresh anonymous one (after fork: a
// system call only). True when joined, or where keys are unavailable to this process anyway.
bool join_fresh_session_keyring();

// The calling process, root, becomes `uid` (gid the same) for good: no supplementary groups, no
// capability (bounding and ambient sets emptied), no new privileges, killed when its parent
// ends. After fork: system calls only. False when a step failed.
bool take_uid(unsigned uid);

// Runs argv[0] (searched in PATH) with `stdin_text` on its standard input, in its own process
// group, under `limits`. Without a sandbox it runs in `working_dir` (empty: the current one);
// with one, inside bwrap with the sandbox's writable folder as working dir (and a clean
// environment for bwrap itself, whatever `start` says). Everything the program
// started is killed when the run ends. Never throws for a failing program; a program that cannot
// be started gives failed_to_start with `error` saying why. Safe to call from several threads.
RunResult run_process(const std::vector<std::string>& argv, std::string_view stdin_text, const Limits& limits,
                      const std::filesystem::path& working_dir = {}, const Sandbox* sandbox = nullptr,
                      const StartOptions& start = {});

// The bwrap command line that runs `argv` inside `sandbox` (exposed for tests and messages).
std::vector<std::string> sandboxed_argv(const std::vector<std::string>& argv, const Sandbox& sandbox);

}  // namespace blockcheck
