// Tries to make namespaces of its own (new kernel attack surface: a user namespace gives a
// process every capability over what it then creates): unshare(CLONE_NEWUSER), unshare(CLONE_NEWNET),
// clone(CLONE_NEWUSER | CLONE_NEWNS), clone3 with CLONE_NEWUSER, setns on its own namespace.
// Prints "NAME ok" or "NAME denied: errno N" for each; a child it made exits at once.
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>

namespace {

void report(const char* name, long result) {
    if (result < 0)
        std::printf("%s denied: errno %d\n", name, errno);
    else
        std::printf("%s ok\n", name);
    std::fflush(stdout);
}

// A child (pid 0 here) exits at once; the parent reaps it.
long reaped(long pid) {
    if (pid == 0) _exit(0);
    if (pid > 0) waitpid(static_cast<pid_t>(pid), nullptr, 0);
    return pid;
}

}  // namespace

int main() {
    report("clone(CLONE_NEWUSER|CLONE_NEWNS)",
           reaped(syscall(SYS_clone, CLONE_NEWUSER | CLONE_NEWNS | SIGCHLD, nullptr, nullptr, nullptr, 0)));
#ifdef SYS_clone3
    clone_args args{};
    args.flags = CLONE_NEWUSER;
    args.exit_signal = SIGCHLD;
    report("clone3(CLONE_NEWUSER)", reaped(syscall(SYS_clone3, &args, sizeof args)));
#endif
    const int own = open("/proc/self/ns/net", O_RDONLY);
    report("setns(net)", syscall(SYS_setns, own, 0));
    report("unshare(CLONE_NEWNET)", syscall(SYS_unshare, CLONE_NEWNET));
    report("unshare(CLONE_NEWUSER)", syscall(SYS_unshare, CLONE_NEWUSER));
}
