// Where a student's program runs during batch grading: isolated as far as the machine allows,
// always under resource limits, and with nothing of the grader's or other students' in view.
#pragma once

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

// Runs compiled programs. The strongest isolation that works here is chosen once, by running
// /usr/bin/true under each in turn; BLOCKCHECK_GRADE_ISOLATION=<name> forces one (an error if it
// does not work). As root, programs run as a fresh uid each (1900000000 + a hash, never a real
// user's): RLIMIT_NPROC then applies (the kernel ignores it for root), and after the run every
// process of that uid is killed, so nothing a program starts outlives its run even without bwrap.
// With bubblewrap as root, each thread keeps one jail session (jail_session.hpp) and runs its
// programs there, each with the same view, uid and limits as a jail of its own; the session
// starts once instead of bwrap once a program. BLOCKCHECK_GRADE_SESSION=0 turns sessions off;
// a session that fails runs that program in a jail of its own. Safe to use from several threads.
class ProgramJail {
public:
    // `sessions`: use jail sessions where they work (false: every program in a jail of its own).
    explicit ProgramJail(bool sessions = true);
    ~ProgramJail();
    ProgramJail(const ProgramJail&) = delete;
    ProgramJail& operator=(const ProgramJail&) = delete;

    Isolation isolation() const { return isolation_; }
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
    bool works(Isolation isolation) const;
    std::optional<RunResult> run_in_session(const std::filesystem::path& binary, std::string_view input,
                                            const Limits& limits) const;
    void start_sessions(bool wanted);

    std::filesystem::path runtime_;  // private folder (0711) for program copies and scratch folders
    Isolation isolation_ = Isolation::limits_only;
    std::vector<std::string> session_argv_;  // empty: no sessions
    mutable std::once_flag sessions_probed_;
    mutable bool sessions_work_ = false;
    mutable std::mutex sessions_mutex_;
    mutable std::map<std::thread::id, std::unique_ptr<JailSession>> sessions_;
};

}  // namespace blockcheck
