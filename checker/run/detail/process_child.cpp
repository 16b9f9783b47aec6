// The child side of run_process, between fork and exec: its own session, default signals, the
// pipes on 0, 1 and 2, its folder and limits, a fresh session keyring, then (when asked) a
// throw-away uid and the program's seccomp filter, and exec. System calls only: the parent may
// have other threads, so nothing here allocates or takes a lock.
#include "checker/run/detail/process_parts.hpp"
#include "checker/run/seccomp_filter.hpp"

#include <fcntl.h>
#include <linux/capability.h>
#include <linux/keyctl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <system_error>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

namespace blockcheck {

namespace process_parts {

void throw_errno(const std::string& what) { throw std::system_error(errno, std::generic_category(), what); }

namespace {

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

}  // namespace

void child_main(const ChildPlan& plan) {
    if (::setsid() < 0) child_fail(plan.error_fd, step_setsid);
    reset_signals();
    if (!redirect_stdio(plan)) child_fail(plan.error_fd, step_stdio);
    if (plan.working_dir && ::chdir(plan.working_dir) < 0) child_fail(plan.error_fd, step_chdir);
    if (!apply_rlimits(plan.rlimits)) child_fail(plan.error_fd, step_rlimit);
    if (!join_fresh_session_keyring()) child_fail(plan.error_fd, step_keyring);
    if (plan.uid != 0 && !take_uid(plan.uid)) child_fail(plan.error_fd, step_uid);
    if (plan.seccomp && !install_seccomp_filter(*plan.seccomp)) child_fail(plan.error_fd, step_seccomp);
    if (plan.environment) {
        ::execvpe(plan.argv[0], plan.argv.data(), plan.environment);
    } else {
        ::execvp(plan.argv[0], plan.argv.data());
    }
    child_fail(plan.error_fd, step_exec);
}

namespace {

// 0 (or a negative count) means no limit.
rlim_t to_rlim(std::size_t value) { return value == 0 ? RLIM_INFINITY : static_cast<rlim_t>(value); }
rlim_t to_rlim(int count) { return count <= 0 ? RLIM_INFINITY : static_cast<rlim_t>(count); }

}  // namespace

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
        case step_keyring: return "cannot give '" + argv[0] + "' a session keyring of its own: " + reason;
        case step_uid: return "cannot run '" + argv[0] + "' as a throw-away user: " + reason;
        case step_seccomp: return "cannot install the seccomp filter for '" + argv[0] + "': " + reason;
        case step_exec: return "cannot execute '" + argv[0] + "': " + reason;
    }
    return "cannot start '" + argv[0] + "': " + reason;
}

}  // namespace process_parts

bool join_fresh_session_keyring() {
    if (::syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, nullptr) >= 0) return true;
    // No keys here (a kernel without them, or a container's filter denying them to everyone).
    return errno == ENOSYS || errno == EPERM;
}

bool take_uid(unsigned uid) {
    for (int cap = 0; cap <= CAP_LAST_CAP; ++cap)
        if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) return false;
    // Raw calls: glibc's wrappers would signal the threads of a process that has but one here.
    return ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) == 0 &&
           ::syscall(SYS_setgroups, 0, nullptr) == 0 && ::syscall(SYS_setresgid, uid, uid, uid) == 0 &&
           ::syscall(SYS_setresuid, uid, uid, uid) == 0 && ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
           ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == 0;
}

}  // namespace blockcheck
