// The runner inside a jail session (blockcheck-jail): for each request, the program's bytes
// become /bins/<n>, and a first process in new PID, mount and IPC namespaces mounts a fresh
// /proc, /scratch, /tmp and /dev/shm, binds the program read-only at /exercise, hides /bins,
// drops every capability, takes the request's throw-away uid and starts the program as its
// only child, as bwrap's init would. When that first process ends, the kernel kills whatever
// else the program left in its namespace, and its tmpfs folders go with the namespace.
#include "checker/run/jail_protocol.hpp"
#include "checker/run/jail_session.hpp"

#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

namespace blockcheck {

namespace {

constexpr const char* bins = "/bins";  // the runner's own tmpfs (root, 0700): program bytes
constexpr std::size_t tmp_bytes = std::size_t{64} << 20;  // /tmp and /dev/shm, as the one-off jail's /tmp

// Everything the program's first process needs, prepared before the clone.
struct ProgramPlan {
    std::string binary;                    // /bins/<n>
    std::string scratch_options, tmp_options;  // tmpfs mount options (size, mode, owner)
    unsigned uid = 0;
};

bool mount_tmpfs(const char* where, const std::string& options) {
    return ::mount("tmpfs", where, "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) == 0;
}

// The program's own view: fresh /proc (its PID namespace), tmpfs folders it owns, itself
// read-only at /exercise, and neither other programs' bytes nor the runner.
bool build_view(const ProgramPlan& plan) {
    return ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
           ::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0 &&
           mount_tmpfs("/scratch", plan.scratch_options) && mount_tmpfs("/tmp", plan.tmp_options) &&
           mount_tmpfs("/dev/shm", plan.tmp_options) &&
           ::mount(plan.binary.c_str(), "/exercise", nullptr, MS_BIND, nullptr) == 0 &&
           ::mount(nullptr, "/exercise", nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr) == 0 &&
           ::umount2(bins, MNT_DETACH) == 0 && ::umount2("/runner", MNT_DETACH) == 0;
}

// No capability can come back: bounding and ambient sets emptied, then the throw-away uid
// (which clears the rest), no new privileges; dumpable again, as a process started as that uid.
bool become(unsigned uid) {
    for (int cap = 0; cap <= CAP_LAST_CAP; ++cap)
        if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) return false;
    return ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) == 0 && ::setgroups(0, nullptr) == 0 &&
           ::setresgid(uid, uid, uid) == 0 && ::setresuid(uid, uid, uid) == 0 &&
           ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && ::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) == 0;
}

void say(const char* message) {
    const ssize_t ignored = ::write(2, message, std::char_traits<char>::length(message));
    (void)ignored;
}

// The first process of the program's PID namespace (after fork: system calls only). Exits as
// bwrap's init does: the program's exit code, or 128 + the signal that ended it.
int program_init(void* context) {
    const auto& plan = *static_cast<const ProgramPlan*>(context);
    if (!build_view(plan) || !become(plan.uid)) {
        say("bwrap: the jail session could not prepare the program's namespaces\n");
        return 1;
    }
    const pid_t program = ::fork();
    if (program < 0) {
        say("bwrap: cannot fork\n");
        return 1;
    }
    if (program == 0) {
        // bwrap's environment for a program (--setenv in order, then PWD); it stays in the
        // session of its first process, as under bwrap --new-session.
        static char path[] = "PATH=/usr/bin:/bin", home[] = "HOME=/scratch", tmpdir[] = "TMPDIR=/tmp",
                    pwd[] = "PWD=/scratch";
        static char exercise[] = "/exercise";
        char* environment[] = {path, home, tmpdir, pwd, nullptr};
        char* argv[] = {exercise, nullptr};
        if (::chdir("/scratch") != 0) ::_exit(1);
        ::execve(exercise, argv, environment);
        say("bwrap: execvp /exercise: cannot execute the program\n");
        ::_exit(1);
    }
    for (;;) {
        int status = 0;
        const pid_t ended = ::wait(&status);
        if (ended < 0 && errno == EINTR) continue;
        if (ended < 0) return 1;
        if (ended != program) continue;  // an orphan the program left: reaped
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
}

// The program's bytes in a fresh file of /bins (readable and executable, owned by root).
std::string store_binary(const std::string& bytes, std::uint64_t n) {
    const std::string path = std::string(bins) + "/" + std::to_string(n);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
    if (fd < 0) return {};
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t w = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        written += static_cast<std::size_t>(w);
    }
    ::close(fd);
    if (written != bytes.size()) {
        ::unlink(path.c_str());
        return {};
    }
    return path;
}

RunResult run_request(const jail_protocol::Request& request, std::uint64_t n) {
    ProgramPlan plan;
    plan.binary = store_binary(request.binary, n);
    if (plan.binary.empty()) {
        RunResult failed;
        failed.error = "the jail session cannot store the program";
        return failed;
    }
    const std::size_t scratch_bytes = request.limits.file_bytes ? request.limits.file_bytes : std::size_t{16} << 20;
    const std::string owner = ",mode=0755,uid=" + std::to_string(request.uid) + ",gid=" + std::to_string(request.uid);
    plan.scratch_options = "size=" + std::to_string(scratch_bytes) + owner;
    plan.tmp_options = "size=" + std::to_string(tmp_bytes) + owner;
    plan.uid = request.uid;
    StartOptions start;
    start.namespaces = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC;
    start.entry = program_init;
    start.entry_context = &plan;
    RunResult result = run_process({"/exercise"}, request.input, request.limits, {}, nullptr, start);
    ::unlink(plan.binary.c_str());
    return result;
}

}  // namespace

int serve_jail_session() {
    if (::mount("tmpfs", bins, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0700") != 0) {
        say("blockcheck-jail: cannot mount /bins\n");
        return 1;
    }
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);  // nothing in the jail reads this process's memory or descriptors
    for (std::uint64_t n = 0;; ++n) {
        const auto request = jail_protocol::read_request(0);
        if (!request) return 0;
        if (!jail_protocol::send_all(1, jail_protocol::encode(run_request(*request, n)))) return 1;
    }
}

}  // namespace blockcheck
