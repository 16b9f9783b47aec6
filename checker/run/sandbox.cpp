// The program jail: bwrap's command line (from sandboxed_argv, with the writable folder turned
// into a size-capped tmpfs and the program bound read-only), the throw-away uid taken by our own
// code in the child as root (run_process's StartOptions::uid), the program's seccomp filter
// (seccomp_filter.hpp) in every isolation, and the decoding of what bwrap reports.
#include "checker/run/sandbox.hpp"
#include "checker/common/stale_sweep.hpp"

#include "checker/common/fd.hpp"
#include "checker/common/hashing.hpp"
#include "checker/run/seccomp_filter.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <set>
#include <stdexcept>

namespace blockcheck {

namespace fs = std::filesystem;

namespace {

constexpr const char* inside_program = "/exercise";
constexpr const char* inside_scratch = "/scratch";
constexpr unsigned uid_base = 1'900'000'000u;  // far above any real or container user range in use
constexpr unsigned uid_span = 1u << 20;

bool uses_bwrap(Isolation i) { return i == Isolation::bubblewrap_uid || i == Isolation::bubblewrap; }
bool uses_uid(Isolation i) { return i == Isolation::bubblewrap_uid || i == Isolation::uid_only; }

bool executable(const char* path) { return ::access(path, X_OK) == 0; }

// A fresh throw-away uid for each run: the runs of this process never share one, and other
// graders on the machine almost never do.
unsigned next_uid() {
    static std::atomic<std::uint64_t> counter{0};
    const std::uint64_t n = counter++;
    const std::uint64_t h = leading_u64(content_hash(std::to_string(::getpid()) + "/" + std::to_string(n)));
    return uid_base + static_cast<unsigned>(h % uid_span);
}

std::string unique_name() {
    static std::atomic<std::uint64_t> counter{0};
    return std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

// Kills every process of `uid` (they may have left the program's process group) from a child
// that takes that uid: kill(-1) then reaches exactly them.
void kill_uid(unsigned uid) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (::syscall(SYS_setresgid, uid, uid, uid) == 0 && ::syscall(SYS_setresuid, uid, uid, uid) == 0)
            ::kill(-1, SIGKILL);
        ::_exit(0);
    }
    if (pid > 0)
        while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
}

// Replaces sandboxed_argv's "--bind /scratch /scratch" with `mounts`.
void replace_scratch_bind(std::vector<std::string>& args, const std::vector<std::string>& mounts) {
    for (std::size_t i = 0; i + 2 < args.size(); ++i) {
        if (args[i] == "--bind" && args[i + 1] == inside_scratch && args[i + 2] == inside_scratch) {
            args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i + 3));
            args.insert(args.begin() + static_cast<std::ptrdiff_t>(i), mounts.begin(), mounts.end());
            return;
        }
    }
    throw std::runtime_error("sandboxed_argv gave no writable bind to replace");
}

// bwrap's line from sandboxed_argv, with "--bind /scratch /scratch" replaced by a tmpfs of
// `scratch_bytes` there and the program bound read-only at /exercise; with `seccomp`, the filter
// read from descriptor 3.
std::vector<std::string> bwrap_argv(const fs::path& program_copy, std::size_t scratch_bytes, bool seccomp) {
    std::vector<std::string> args = sandboxed_argv({inside_program}, Sandbox{inside_scratch, {}});
    if (seccomp) args.insert(args.begin() + 1, {"--seccomp", "3"});
    // The root itself (bwrap's tmpfs) read-only too, once everything is mounted on it.
    replace_scratch_bind(args, {"--size", std::to_string(scratch_bytes), "--tmpfs", inside_scratch, "--ro-bind",
                                program_copy.string(), inside_program, "--remount-ro", "/"});
    return args;
}

// A jail session's bwrap line: the one-off jail's view, run as root (no user namespace, so the
// runner can give each program a throw-away uid) with only the capabilities the runner needs to
// build each program's namespaces (and bring up its loopback); mount points for /scratch, /bins
// and /exercise; the runner at /runner; only PATH in the runner's environment. No seccomp
// filter here: the runner makes namespaces, and each program's init installs the program's
// filter just before the program starts.
std::vector<std::string> session_argv(const fs::path& runner) {
    std::vector<std::string> args = sandboxed_argv({"/runner"}, Sandbox{inside_scratch, {}});
    const auto at = [&](const std::string& word) { return std::find(args.begin(), args.end(), word); };
    args.erase(at("--unshare-all"));
    args.insert(args.begin() + 1, {"--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"});
    args.insert(at("ALL") + 1, {"--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID",
                                "--cap-add", "CAP_SETPCAP", "--cap-add", "CAP_NET_ADMIN"});
    for (std::size_t i = 0; i + 2 < args.size();) {
        if (args[i] == "--setenv" && args[i + 1] != "PATH")
            args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i + 3));
        else
            ++i;
    }
    replace_scratch_bind(args, {"--dir", inside_scratch, "--dir", "/bins", "--ro-bind", "/dev/null", inside_program,
                                "--ro-bind", runner.string(), "/runner", "--remount-ro", "/"});
    return args;
}

// The filter in an anonymous file at offset 0, for bwrap to read once (a fresh one per run:
// concurrent runs must not share a file offset). -1 when there is none.
int seccomp_file() {
    const std::vector<sock_filter>& filter = program_seccomp_filter();
    if (filter.empty()) return -1;
    const int fd = ::memfd_create("blockcheck-seccomp", MFD_CLOEXEC);
    if (fd < 0) throw std::runtime_error("cannot create the seccomp filter's file");
    const auto bytes = static_cast<ssize_t>(filter.size() * sizeof(sock_filter));
    if (::write(fd, filter.data(), static_cast<std::size_t>(bytes)) != bytes || ::lseek(fd, 0, SEEK_SET) != 0) {
        ::close(fd);
        throw std::runtime_error("cannot write the seccomp filter");
    }
    return fd;
}

// bwrap exits with 128 + signal when the program was killed by one; CPU-limit deaths are timeouts.
void decode_bwrap_status(RunResult& r, const Limits& limits) {
    if (r.status != RunStatus::exited || r.exit_code <= 128 || r.exit_code - 128 >= NSIG) return;
    r.status = RunStatus::signaled;
    r.signal = r.exit_code - 128;
    const bool cpu_limit = r.signal == SIGXCPU || (r.signal == SIGKILL && r.cpu_seconds >= std::ceil(limits.cpu_seconds));
    if (cpu_limit) r.status = RunStatus::timed_out;
}

// The sandbox's own tools failing (not the program): worth one more try.
bool tool_failed(const RunResult& r) {
    return r.status == RunStatus::exited && r.exit_code == 1 &&
           r.err.starts_with("bwrap: ") && r.out.empty();
}

// Processes of throw-away uids that were orphaned (parent 1) by a grader killed in the middle of
// a run: a jail's init or a program that outlived it. A live run has no process whose parent is 1.
void kill_orphans() {
    std::set<unsigned> uids;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        const std::string pid = entry.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream status(entry.path() / "status");
        std::string line;
        long ppid = -1;
        unsigned long uid = 0;
        bool zombie = false;
        while (std::getline(status, line)) {
            if (line.starts_with("State:")) zombie = line.find('Z') != std::string::npos;
            if (line.starts_with("PPid:")) ppid = std::strtol(line.c_str() + 5, nullptr, 10);
            if (line.starts_with("Uid:")) uid = std::strtoul(line.c_str() + 4, nullptr, 10);
        }
        if (!zombie && ppid == 1 && uid >= uid_base && uid < uid_base + uid_span) uids.insert(static_cast<unsigned>(uid));
    }
    for (unsigned uid : uids) kill_uid(uid);
}

}  // namespace

unsigned throwaway_uid() { return next_uid(); }

void kill_throwaway_uid(unsigned uid) { kill_uid(uid); }

std::string_view isolation_name(Isolation isolation) {
    switch (isolation) {
        case Isolation::bubblewrap_uid: return "bubblewrap_uid";
        case Isolation::bubblewrap: return "bubblewrap";
        case Isolation::uid_only: return "uid_only";
        case Isolation::limits_only: return "limits_only";
    }
    return "unknown";
}

std::string_view describe_isolation(Isolation isolation) {
    switch (isolation) {
        case Isolation::bubblewrap_uid:
            return "bubblewrap (no network, read-only system, private /tmp) as a throw-away uid, with resource limits";
        case Isolation::bubblewrap:
            return "bubblewrap (no network, read-only system, private /tmp), with resource limits";
        case Isolation::uid_only:
            return "no bubblewrap: a throw-away uid and resource limits (programs can read world-readable files)";
        case Isolation::limits_only:
            return "no bubblewrap: resource limits only (programs can read what the grader's user can read)";
    }
    return "";
}

bool is_sandbox(Isolation isolation) { return uses_bwrap(isolation); }

Text without_sandbox(Isolation isolation) {
    if (is_sandbox(isolation)) return {};
    if (isolation == Isolation::uid_only)
        return {"Student programs ran WITHOUT a sandbox (bubblewrap cannot start here): as throw-away users under "
                "resource limits and a system-call filter, they could read every world-readable file of this machine "
                "and use its network.",
                "学生程序在没有沙箱的情况下运行（此处无法启动 bubblewrap）：它们以一次性用户身份、在资源限制和系统调用过滤下运行，"
                "可以读取本机所有对所有人可读的文件，并可使用网络。"};
    return {"Student programs ran WITHOUT a sandbox and as the grader's own user (bubblewrap cannot start here, and "
            "no throw-away user could be taken): under resource limits and a system-call filter only, they could read "
            "and change whatever the grader can, including other submissions and the grades.",
            "学生程序在没有沙箱的情况下以评分者本人的用户身份运行（此处无法启动 bubblewrap，也无法使用一次性用户）："
            "仅受资源限制和系统调用过滤约束，它们可以读取并修改评分者能访问的一切，包括其他学生的提交和成绩。"};
}

ProgramJail::ProgramJail(bool sessions) {
    const fs::path parent = fs::temp_directory_path();
    sweep_stale(parent, "blockcheck-grade-");
    std::string pattern = (parent / ("blockcheck-grade-" + std::to_string(::getpid()) + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a folder in " + parent.string());
    runtime_ = pattern;
    const bool root = ::geteuid() == 0;
    if (root) kill_orphans();
    // Throw-away uids must be able to reach the program copies, but not list them.
    fs::permissions(runtime_, root ? fs::perms(0711) : fs::perms(0700));

    const std::vector<Isolation> order =
        root ? std::vector{Isolation::bubblewrap_uid, Isolation::uid_only}
             : std::vector{Isolation::bubblewrap, Isolation::limits_only};
    isolation_ = Isolation::limits_only;
    if (const char* forced = std::getenv("BLOCKCHECK_GRADE_ISOLATION"); forced && *forced) {
        std::optional<Isolation> wanted;
        for (Isolation i : {Isolation::bubblewrap_uid, Isolation::bubblewrap, Isolation::uid_only, Isolation::limits_only})
            if (isolation_name(i) == forced) wanted = i;
        if (!wanted)
            throw std::runtime_error(std::string("BLOCKCHECK_GRADE_ISOLATION: unknown isolation '") + forced +
                                     "' (bubblewrap_uid, bubblewrap, uid_only, limits_only)");
        if (std::string problem = problem_with(*wanted); !problem.empty())
            throw std::runtime_error(std::string("isolation '") + forced + "' does not work on this machine: " + problem);
        isolation_ = *wanted;
    } else {
        bool found = false;
        for (Isolation i : order) {
            std::string problem = problem_with(i);
            if (problem.empty()) {
                isolation_ = i;
                found = true;
                break;
            }
            if (weaker_because_.empty()) weaker_because_ = std::string(isolation_name(i)) + ": " + problem;
        }
        if (!found)
            throw std::runtime_error("no isolation works here, and as root programs never run as root: " + weaker_because_);
    }
    start_sessions(sessions);
}

// Sessions need the throw-away uids (root, bwrap) and the runner.
void ProgramJail::start_sessions(bool wanted) {
    if (!wanted || isolation_ != Isolation::bubblewrap_uid) return;
    if (const char* off = std::getenv("BLOCKCHECK_GRADE_SESSION"); off && std::string_view(off) == "0") return;
    const fs::path runner = jail_runner_path();
    if (!runner.empty()) session_argv_ = session_argv(runner);
}

// Used only when a session runs /usr/bin/true as a jail of its own would.
bool ProgramJail::sessions() const {
    if (session_argv_.empty()) return false;
    std::call_once(sessions_probed_, [this] {
        Limits limits;
        limits.wall_seconds = 20;
        limits.cpu_seconds = 5;
        const auto probe = run_in_session("/usr/bin/true", {}, limits);
        sessions_work_ = probe && probe->status == RunStatus::exited && probe->exit_code == 0;
        if (!sessions_work_)
            weaker_because_ = "jail session: " + (probe ? (probe->error + probe->err) : std::string("the runner did not answer"));
    });
    return sessions_work_;
}

std::string ProgramJail::weaker_because() const {
    sessions();
    return weaker_because_;
}

ProgramJail::~ProgramJail() {
    sessions_.clear();
    std::error_code ignored;
    fs::remove_all(runtime_, ignored);
}

std::string ProgramJail::problem_with(Isolation isolation) const {
    if (uses_bwrap(isolation) && !executable("/usr/bin/bwrap")) return "/usr/bin/bwrap is not installed";
    if (uses_uid(isolation) && ::geteuid() != 0) return "a throw-away uid needs the grader to run as root";
    // A student program never runs as root: as root, a throw-away uid or nothing.
    if (!uses_uid(isolation) && ::geteuid() == 0)
        return "as root, programs would run as root: blockcheck never does that (it needs a throw-away uid: "
               "bubblewrap_uid or uid_only)";
    Limits limits;
    limits.wall_seconds = 20;
    limits.cpu_seconds = 5;
    const RunResult r = run_once("/usr/bin/true", {}, limits, isolation);
    if (r.status == RunStatus::exited && r.exit_code == 0) return {};
    std::string why = r.error.empty() ? r.err : r.error;
    while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
    return why.empty() ? "a probe ended " + std::string(to_string(r.status)) : why;
}

RunResult ProgramJail::run(const fs::path& binary, std::string_view input, const Limits& limits) const {
    if (sessions()) {
        if (auto r = run_in_session(binary, input, limits)) return *r;
    }
    RunResult r = run_once(binary, input, limits, isolation_);
    if (tool_failed(r)) r = run_once(binary, input, limits, isolation_);
    return r;
}

// In this thread's session (started when it has none); nullopt when the session failed.
std::optional<RunResult> ProgramJail::run_in_session(const fs::path& binary, std::string_view input,
                                                     const Limits& limits) const {
    JailSession* session = nullptr;
    {
        std::lock_guard lock(sessions_mutex_);
        auto& mine = sessions_[std::this_thread::get_id()];
        if (!mine) {
            mine = JailSession::start(session_argv_);
            if (!mine) return std::nullopt;
        }
        session = mine.get();
    }
    auto r = session->run(binary, input, limits, next_uid());
    if (!r) {
        std::lock_guard lock(sessions_mutex_);
        sessions_.erase(std::this_thread::get_id());  // broken: the next run starts another
        return std::nullopt;
    }
    decode_bwrap_status(*r, limits);
    return r;
}

RunResult ProgramJail::run_once(const fs::path& binary, std::string_view input, const Limits& limits,
                                Isolation isolation) const {
    const unsigned uid = uses_uid(isolation) ? next_uid() : 0;
    const fs::path scratch = runtime_ / unique_name();
    struct Remove {
        fs::path path;
        ~Remove() {
            std::error_code ignored;
            fs::remove_all(path, ignored);
        }
    } remove{scratch};
    std::vector<std::string> argv;
    fs::path working_dir;
    Fd filter;
    try {
        if (uses_bwrap(isolation)) {
            // A copy, so the program cannot reach the shared cache or change what others run.
            fs::copy_file(binary, scratch, fs::copy_options::overwrite_existing);
            fs::permissions(scratch, fs::perms(0755));
            const std::size_t scratch_bytes = limits.file_bytes ? limits.file_bytes : std::size_t{16} << 20;
            filter.reset(seccomp_file());
            const auto jail = bwrap_argv(scratch, scratch_bytes, static_cast<bool>(filter));
            argv.insert(argv.end(), jail.begin(), jail.end());
        } else {
            fs::create_directory(scratch);
            fs::permissions(scratch, fs::perms(0700));
            if (uid != 0 && ::chown(scratch.c_str(), uid, uid) != 0)
                throw std::runtime_error("cannot hand the scratch folder to uid " + std::to_string(uid));
            fs::copy_file(binary, scratch / "program");
            fs::permissions(scratch / "program", fs::perms(0755));
            argv.insert(argv.end(), {"/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=" + scratch.string(),
                                     "TMPDIR=" + scratch.string(), (scratch / "program").string()});
            working_dir = scratch;
        }
    } catch (const std::exception& e) {
        RunResult failed;
        failed.error = std::string("cannot prepare the program's folder: ") + e.what();
        return failed;
    }
    // bwrap starts with a clean environment: its init stays in the jail as the program's parent,
    // and its environment is readable there at /proc/1/environ. Without bwrap the child installs
    // the program's filter itself.
    StartOptions start;
    start.clean_environment = true;
    start.descriptor_3 = filter.get();
    start.uid = uid;
    start.program_filter = !uses_bwrap(isolation);
    RunResult r = run_process(argv, input, limits, working_dir, nullptr, start);
    if (uses_bwrap(isolation)) decode_bwrap_status(r, limits);
    if (uses_uid(isolation)) kill_uid(uid);
    return r;
}

}  // namespace blockcheck
