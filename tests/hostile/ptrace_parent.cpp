// Attaches to its parent with ptrace (in a jail: bwrap's init, which runs as the same uid) and
// leaves it stopped, then waits; without a filter the run only ends at the wall clock.
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

int main() {
    const pid_t parent = getppid();
    const long attached = ptrace(PTRACE_ATTACH, parent, nullptr, nullptr);
    std::printf("attach %s\n", attached == 0 ? "ok" : "failed");
    std::fflush(stdout);
    if (attached == 0) waitpid(parent, nullptr, __WALL);
    for (;;) pause();
}
