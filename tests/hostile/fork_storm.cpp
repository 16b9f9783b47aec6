// Forks a bounded storm (200 children, so it cannot hurt the machine even if every limit fails)
// of sleepers, prints its process group, and exits: the children must not outlive the run.
#include <unistd.h>

#include <cstdio>

int main() {
    std::printf("pgid %d\n", static_cast<int>(::getpgrp()));
    std::fflush(stdout);
    int forked = 0;
    for (int i = 0; i < 200; ++i) {
        pid_t pid = ::fork();
        if (pid == 0) {
            ::sleep(60);
            ::_exit(0);
        }
        if (pid > 0) ++forked;
    }
    std::printf("forked %d\n", forked);
    return 0;
}
