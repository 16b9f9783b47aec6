// blockcheck-jail: the runner inside a grading jail session (checker/run/jail_session.hpp), and
// each program's init there (--init). It is started by the grader inside bubblewrap, and by
// itself, never by hand.
#include "checker/run/jail_session.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
    // bwrap gives the runner PWD besides PATH: start again with only PATH, so nothing of the
    // grader's reaches the jail.
    if (argc == 1) {
        static char path[] = "PATH=/usr/bin:/bin", again[] = "--clean";
        char* environment[] = {path, nullptr};
        char* args[] = {argv[0], again, nullptr};
        ::execve("/proc/self/exe", args, environment);
        return 1;
    }
    if (argc == 2 && std::strcmp(argv[1], "--clean") == 0) return blockcheck::serve_jail_session();
    // A program's init: --init UID SCRATCH_MOUNT_OPTIONS TMP_MOUNT_OPTIONS (from the runner).
    if (argc == 5 && std::strcmp(argv[1], "--init") == 0) {
        char* end = nullptr;
        const unsigned long uid = std::strtoul(argv[2], &end, 10);
        if (*end != '\0' || uid == 0 || uid > 0xfffffffeul) return 2;
        return blockcheck::run_program_init(static_cast<unsigned>(uid), argv[3], argv[4]);
    }
    return 2;
}
