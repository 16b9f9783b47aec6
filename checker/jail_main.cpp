// blockcheck-jail: the runner inside a grading jail session (checker/run/jail_session.hpp). It
// is started by the grader inside bubblewrap, never by hand.
#include "checker/run/jail_session.hpp"

#include <unistd.h>

#include <cstring>

int main(int argc, char** argv) {
    // bwrap gives the runner PWD besides PATH. Each program's first process is a copy of the
    // runner, and like bwrap's init it must hold nothing but PATH (a program can read it at
    // /proc/1/environ): start again with only PATH.
    if (argc == 1) {
        static char path[] = "PATH=/usr/bin:/bin", again[] = "--clean";
        char* environment[] = {path, nullptr};
        char* args[] = {argv[0], again, nullptr};
        ::execve("/proc/self/exe", args, environment);
        return 1;
    }
    if (argc != 2 || std::strcmp(argv[1], "--clean") != 0) return 2;
    return blockcheck::serve_jail_session();
}
