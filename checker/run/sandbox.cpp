// The program jail: bwrap's command line (from sandboxed_argv, with the writable folder turned
// into a size-capped tmpfs and the program bound read-only), setpriv in front of it as root, and
// the decoding of what bwrap reports.
#include "checker/run/sandbox.hpp"

#include "checker/common/fd.hpp"
#include "checker/common/hashing.hpp"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
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

std::vector<std::string> setpriv_prefix(unsigned uid) {
    const std::string id = std::to_string(uid);
    return {"/usr/bin/setpriv", "--reuid=" + id, "--regid=" + id, "--clear-groups", "--nnp",
            "--inh-caps=-all", "--bounding-set=-all", "--pdeathsig=KILL"};
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
// build each program's namespaces; mount points for /scratch, /bins and /exercise; the runner
// at /runner; only PATH in the runner's environment.
std::vector<std::string> session_argv(const fs::path& runner, bool seccomp) {
    std::vector<std::string> args = sandboxed_argv({"/runner"}, Sandbox{inside_scratch, {}});
    const auto at = [&](const std::string& word) { return std::find(args.begin(), args.end(), word); };
    args.erase(at("--unshare-all"));
    args.insert(args.begin() + 1, {"--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"});
    args.insert(at("ALL") + 1, {"--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID",
                                "--cap-add", "CAP_SETPCAP"});
    for (std::size_t i = 0; i + 2 < args.size();) {
        if (args[i] == "--setenv" && args[i + 1] != "PATH")
            args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i + 3));
        else
            ++i;
    }
    if (seccomp) args.insert(args.begin() + 1, {"--seccomp", "3"});
    replace_scratch_bind(args, {"--dir", inside_scratch, "--dir", "/bins", "--ro-bind", "/dev/null", inside_program,
                                "--ro-bind", runner.string(), "/runner", "--remount-ro", "/"});
    return args;
}

// The program's seccomp filter (cBPF, as bwrap --seccomp reads it): ptrace and reading or writing
// another process's memory kill the program with SIGSYS (bwrap's init, its parent in the jail,
// runs as the same uid and would otherwise be stopped or read), and so does any call through a
// foreign ABI (32-bit or x32 calls from a 64-bit program), where the numbers differ; everything
// else is allowed. Empty on an architecture without a filter here.
std::vector<sock_filter> seccomp_filter() {
#if defined(__x86_64__) || defined(__aarch64__)
#if defined(__x86_64__)
    constexpr std::uint32_t native = AUDIT_ARCH_X86_64;
#else
    constexpr std::uint32_t native = AUDIT_ARCH_AARCH64;
#endif
    constexpr std::uint32_t kill = SECCOMP_RET_KILL_PROCESS, allow = SECCOMP_RET_ALLOW;
    std::vector<sock_filter> filter{
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, native, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, kill),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
#if defined(__x86_64__)
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 3, 0),  // __X32_SYSCALL_BIT: the x32 ABI
#endif
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ptrace, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_writev, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, kill),
        BPF_STMT(BPF_RET | BPF_K, allow),
    };
    return filter;
#else
    return {};
#endif
}

// The filter in an anonymous file at offset 0, for bwrap to read once (a fresh one per run:
// concurrent runs must not share a file offset). -1 when there is none.
int seccomp_file() {
    static const std::vector<sock_filter> filter = seccomp_filter();
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
           (r.err.starts_with("bwrap: ") || r.err.starts_with("setpriv: ")) && r.out.empty();
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

// Private folders of graders that were killed: their process is gone.
void sweep_stale_runtimes(const fs::path& parent) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(parent, ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with("blockcheck-grade-")) continue;
        const std::string pid = name.substr(17, name.find('-', 17) - 17);
        if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
        if (std::stol(pid) == ::getpid() || fs::exists("/proc/" + pid, ec)) continue;
        fs::remove_all(entry.path(), ec);
    }
}

}  // namespace

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

ProgramJail::ProgramJail(bool sessions) {
    const fs::path parent = fs::temp_directory_path();
    sweep_stale_runtimes(parent);
    std::string pattern = (parent / ("blockcheck-grade-" + std::to_string(::getpid()) + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a folder in " + parent.string());
    runtime_ = pattern;
    const bool root = ::geteuid() == 0 && executable("/usr/bin/setpriv");
    if (root) kill_orphans();
    // Throw-away uids must be able to reach the program copies, but not list them.
    fs::permissions(runtime_, root ? fs::perms(0711) : fs::perms(0700));

    const std::vector<Isolation> order =
        root ? std::vector{Isolation::bubblewrap_uid, Isolation::bubblewrap, Isolation::uid_only, Isolation::limits_only}
             : std::vector{Isolation::bubblewrap, Isolation::limits_only};
    isolation_ = Isolation::limits_only;
    if (const char* forced = std::getenv("BLOCKCHECK_GRADE_ISOLATION"); forced && *forced) {
        std::optional<Isolation> wanted;
        for (Isolation i : {Isolation::bubblewrap_uid, Isolation::bubblewrap, Isolation::uid_only, Isolation::limits_only})
            if (isolation_name(i) == forced) wanted = i;
        if (!wanted)
            throw std::runtime_error(std::string("BLOCKCHECK_GRADE_ISOLATION: unknown isolation '") + forced +
                                     "' (bubblewrap_uid, bubblewrap, uid_only, limits_only)");
        if (!works(*wanted)) throw std::runtime_error(std::string("isolation '") + forced + "' does not work on this machine");
        isolation_ = *wanted;
    } else {
        for (Isolation i : order) {
            if (works(i)) {
                isolation_ = i;
                break;
            }
        }
    }
    start_sessions(sessions);
}

// Sessions need the throw-away uids (root, bwrap) and the runner.
void ProgramJail::start_sessions(bool wanted) {
    if (!wanted || isolation_ != Isolation::bubblewrap_uid) return;
    if (const char* off = std::getenv("BLOCKCHECK_GRADE_SESSION"); off && std::string_view(off) == "0") return;
    const fs::path runner = jail_runner_path();
    if (!runner.empty()) session_argv_ = session_argv(runner, !seccomp_filter().empty());
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
    });
    return sessions_work_;
}

ProgramJail::~ProgramJail() {
    sessions_.clear();
    std::error_code ignored;
    fs::remove_all(runtime_, ignored);
}

bool ProgramJail::works(Isolation isolation) const {
    if (uses_bwrap(isolation) && !executable("/usr/bin/bwrap")) return false;
    if (uses_uid(isolation) && (::geteuid() != 0 || !executable("/usr/bin/setpriv"))) return false;
    Limits limits;
    limits.wall_seconds = 20;
    limits.cpu_seconds = 5;
    const RunResult r = run_once("/usr/bin/true", {}, limits, isolation);
    return r.status == RunStatus::exited && r.exit_code == 0;
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
            const Fd filter(seccomp_file());
            mine = JailSession::start(session_argv_, filter.get());
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
    if (uses_uid(isolation)) argv = setpriv_prefix(uid);
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
    // bwrap and setpriv start with a clean environment: bwrap's init stays in the jail as the
    // program's parent, and its environment is readable there at /proc/1/environ.
    RunResult r = run_process(argv, input, limits, working_dir, nullptr, StartOptions{true, filter.get()});
    if (uses_bwrap(isolation)) decode_bwrap_status(r, limits);
    if (uses_uid(isolation)) kill_uid(uid);
    return r;
}

}  // namespace blockcheck
