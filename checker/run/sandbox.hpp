// Where a student's program runs during batch grading: isolated as far as the machine allows,
// always under resource limits and the program's seccomp filter (seccomp_filter.hpp: no ptrace,
// no namespace of its own, no keyring), in a fresh empty session keyring, never as root or as
// the grader's uid when the grader is root, and with nothing of the grader's or other
// students' in view.
#pragma once

#include "base/text.hpp"
#include "checker/run/jail_session.hpp"
#include "checker/run/process.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace blockcheck {

// What contains a program, strongest first.
enum class Isolation {
    bubblewrap_uid,  // bwrap (no network, read-only system, private /tmp, tmpfs scratch) as a throw-away uid
    bubblewrap,      // bwrap as the grader's own user (the kernel does not allow unprivileged bwrap)
    uid_only,        // no bwrap, but a throw-away uid: process count and signals are the program's own
    limits_only,     // resource limits and a private working folder; sees what the grader's user sees
};

std::string_view isolation_name(Isolation isolation);
std::string_view describe_isolation(Isolation isolation);

// Whether `isolation` is a sandbox (bubblewrap: a private view of the files, no network): the
// two weaker ones are what a grader gets where bubblewrap cannot start.
bool is_sandbox(Isolation isolation);
// What grading under `isolation` means when it is no sandbox, in both languages, for every
// output of such a run; empty for a sandbox. limits_only runs programs as the grader's own user
// (root when the grader is root).
Text without_sandbox(Isolation isolation);

// A fresh throw-away uid (1900000000 + a hash, never a real user's): what a program gets as root,
// and the compiler too (compile_user.cpp). Take it with StartOptions::uid.
unsigned throwaway_uid();
// Kills every process of throw-away `uid` (they may have left their process group).
void kill_throwaway_uid(unsigned uid);

// Runs compiled programs. The strongest isolation that works here is chosen once, by running
// /usr/bin/true under each in turn; BLOCKCHECK_GRADE_ISOLATION=<name> forces one (an error if it
// does not work). A program never runs as root: as root, only the two isolations with a
// throw-away uid are allowed, and without either the jail cannot be made (it throws, saying
// why). As root, programs run as a fresh uid each (1900000000 + a hash, never a real
// user's), taken by our own code in the child (no setuid tool): RLIMIT_NPROC then applies (the
// kernel ignores it for root), and after the run every process of that uid is killed, so
// nothing a program starts outlives its run even without bwrap. With bubblewrap as root, each
// thread keeps one jail session (jail_session.hpp) and runs its programs there, each with the
// same view, uid and limits as a jail of its own, and namespaces (PID, mount, IPC, network) and
// a freshly executed first process of its own; the session starts once instead of bwrap once a
// program. BLOCKCHECK_GRADE_SESSION=0 turns sessions off; a session that fails runs that program
// in a jail of its own. Safe to use from several threads.
class ProgramJail {
public:
    // `sessions`: use jail sessions where they work (false: every program in a jail of its own).
    explicit ProgramJail(bool sessions = true);
    ~ProgramJail();
    ProgramJail(const ProgramJail&) = delete;
    ProgramJail& operator=(const ProgramJail&) = delete;

    Isolation isolation() const { return isolation_; }
    // Why a stronger isolation (or the jail session, probed here) does not work: the first
    // failure, as "NAME: what its probe said"; empty when the strongest works.
    std::string weaker_because() const;
    // Whether programs run in jail sessions (probed on first use, so a jail that runs nothing
    // costs no session).
    bool sessions() const;

    // Runs a copy of `binary` with `input` on stdin under `limits`. Inside bubblewrap the program
    // is /exercise (read-only), its working folder /scratch (a tmpfs of limits.file_bytes, or
    // 16 MiB), /tmp a private tmpfs, and it sees /usr and the loader's files only. A status the
    // sandbox itself reports is decoded as the program's (bwrap gives 128 + signal for a signal).
    RunResult run(const std::filesystem::path& binary, std::string_view input, const Limits& limits) const;

private:
    RunResult run_once(const std::filesystem::path& binary, std::string_view input, const Limits& limits,
                       Isolation isolation) const;
    // Empty when `isolation` runs /usr/bin/true here; otherwise why not.
    std::string problem_with(Isolation isolation) const;
    std::optional<RunResult> run_in_session(const std::filesystem::path& binary, std::string_view input,
                                            const Limits& limits) const;
    void start_sessions(bool wanted);

    std::filesystem::path runtime_;  // private folder (0711) for program copies and scratch folders
    Isolation isolation_ = Isolation::limits_only;
    mutable std::string weaker_because_;
    std::vector<std::string> session_argv_;  // empty: no sessions
    mutable std::once_flag sessions_probed_;
    mutable bool sessions_work_ = false;
    mutable std::mutex sessions_mutex_;
    mutable std::map<std::thread::id, std::unique_ptr<JailSession>> sessions_;
};

}  // namespace blockcheck
