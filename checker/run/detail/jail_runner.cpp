// The runner inside a jail session (blockcheck-jail) and each program's init. For each request
// the runner stores the program's bytes as /bins/program and starts, in new PID, mount, IPC and
// network namespaces and a fresh session keyring, `/runner --init ...`: the runner executed
// afresh, so the program's first process holds nothing of the runner's memory (earlier
// programs' inputs and outputs passed through it). That init mounts a fresh /proc, /scratch,
// /tmp and /dev/shm, binds the program read-only at /exercise, hides /bins and /runner, brings
// up loopback, makes itself undumpable, and starts the program as its only child: a throw-away
// uid, no capability, the program's seccomp filter. It stays root without capabilities, a uid
// the program does not have. When it ends, the kernel kills whatever else the program left in
// its namespace, and its tmpfs folders and network go with the namespaces.
#include "checker/run/detail/jail_protocol.hpp"
#include "checker/run/jail_session.hpp"
#include "checker/run/seccomp_filter.hpp"

#include <fcntl.h>
#include <linux/capability.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace blockcheck {

namespace {

constexpr const char* bins = "/bins";  // the runner's own tmpfs (root, 0700): the program's bytes
constexpr const char* stored_program = "/bins/program";  // one program at a time
constexpr std::size_t tmp_bytes = std::size_t{64} << 20;  // /tmp and /dev/shm, as the one-off jail's /tmp

void say(const char* message) {
    const ssize_t ignored = ::write(2, message, std::char_traits<char>::length(message));
    (void)ignored;
}

bool mount_tmpfs(const char* where, const std::string& options) {
    return ::mount("tmpfs", where, "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) == 0;
}

// The program's own view: fresh /proc (its PID namespace), tmpfs folders it owns, itself
// read-only at /exercise, and neither the runner's folder of program bytes nor the runner.
bool build_view(const std::string& scratch_options, const std::string& tmp_options) {
    return ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
           ::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0 &&
           mount_tmpfs("/scratch", scratch_options) && mount_tmpfs("/tmp", tmp_options) &&
           mount_tmpfs("/dev/shm", tmp_options) &&
           ::mount(stored_program, "/exercise", nullptr, MS_BIND, nullptr) == 0 &&
           ::mount(nullptr, "/exercise", nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr) == 0 &&
           ::umount2(bins, MNT_DETACH) == 0 && ::umount2("/runner", MNT_DETACH) == 0;
}

// The new network namespace's loopback up, as bwrap --unshare-net leaves it.
bool loopback_up() {
    const int s = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (s < 0) return false;
    ifreq request{};
    std::strncpy(request.ifr_name, "lo", IFNAMSIZ - 1);
    bool up = ::ioctl(s, SIOCGIFFLAGS, &request) == 0;
    request.ifr_flags = static_cast<short>(request.ifr_flags | IFF_UP);
    up = up && ::ioctl(s, SIOCSIFFLAGS, &request) == 0;
    ::close(s);
    return up;
}

// The init keeps uid 0 (never the program's) but no capability at all.
bool drop_capabilities() {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = {};
    return ::syscall(SYS_capset, &header, none) == 0;
}

// The program's process: its uid, its folder, its filter, then exec (bwrap's environment for a
// program: --setenv in order, then PWD). It stays in its init's session, as under bwrap
// --new-session.
[[noreturn]] void exec_program(unsigned uid, const std::vector<sock_filter>& filter) {
    static char path[] = "PATH=/usr/bin:/bin", home[] = "HOME=/scratch", tmpdir[] = "TMPDIR=/tmp",
                pwd[] = "PWD=/scratch";
    static char exercise[] = "/exercise";
    char* environment[] = {path, home, tmpdir, pwd, nullptr};
    char* argv[] = {exercise, nullptr};
    if (!take_uid(uid) || ::chdir("/scratch") != 0 || !install_seccomp_filter(filter)) {
        say("bwrap: the jail session could not prepare the program\n");
        ::_exit(1);
    }
    ::execve(exercise, argv, environment);
    say("bwrap: execvp /exercise: cannot execute the program\n");
    ::_exit(1);
}

// The program's bytes in a fresh /bins/program (readable and executable, owned by root).
bool store_binary(const std::string& bytes) {
    ::unlink(stored_program);
    const int fd = ::open(stored_program, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
    if (fd < 0) return false;
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t w = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        written += static_cast<std::size_t>(w);
    }
    ::close(fd);
    return written == bytes.size();
}

RunResult run_request(const jail_protocol::Request& request) {
    if (!store_binary(request.binary)) {
        ::unlink(stored_program);
        RunResult failed;
        failed.error = "the jail session cannot store the program";
        return failed;
    }
    const std::size_t scratch_bytes = request.limits.file_bytes ? request.limits.file_bytes : std::size_t{16} << 20;
    const std::string owner = ",mode=0755,uid=" + std::to_string(request.uid) + ",gid=" + std::to_string(request.uid);
    StartOptions start;
    start.namespaces = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWNET;
    start.clean_environment = true;  // the init's /proc/1/environ: PATH only
    RunResult result = run_process({"/runner", "--init", std::to_string(request.uid),
                                    "size=" + std::to_string(scratch_bytes) + owner,
                                    "size=" + std::to_string(tmp_bytes) + owner},
                                   request.input, request.limits, {}, nullptr, start);
    ::unlink(stored_program);
    return result;
}

}  // namespace

int run_program_init(unsigned uid, const std::string& scratch_options, const std::string& tmp_options) {
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    if (!build_view(scratch_options, tmp_options) || !loopback_up()) {
        say("bwrap: the jail session could not prepare the program's namespaces\n");
        return 1;
    }
    const std::vector<sock_filter>& filter = program_seccomp_filter();
    const pid_t program = ::fork();
    if (program < 0) {
        say("bwrap: cannot fork\n");
        return 1;
    }
    if (program == 0) exec_program(uid, filter);
    if (!drop_capabilities()) {
        ::kill(program, SIGKILL);
        say("bwrap: the jail session could not drop the init's capabilities\n");
        return 1;
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

int serve_jail_session() {
    if (::mount("tmpfs", bins, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0700") != 0) {
        say("blockcheck-jail: cannot mount /bins\n");
        return 1;
    }
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);  // nothing in the jail reads this process's memory or descriptors
    for (;;) {
        const auto request = jail_protocol::read_request(0);
        if (!request) return 0;
        if (!jail_protocol::send_all(1, jail_protocol::encode(run_request(*request)))) return 1;
    }
}

}  // namespace blockcheck
