// Tries to write outside its own folder: next to itself, up the tree, in /tmp, /var/tmp,
// /dev/shm, $HOME, /root, /work and /, and prints each attempt that succeeded. Files are named
// ESCAPED-BY-BLOCKCHECK-TEST so a test can look for them afterwards.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

void attempt(const std::string& dir) {
    const std::string path = dir + "/ESCAPED-BY-BLOCKCHECK-TEST";
    std::ofstream out(path);
    out << "escaped\n";
    out.flush();
    if (out) std::printf("wrote: %s\n", path.c_str());
}

}  // namespace

int main() {
    char cwd[4096] = "";
    if (::getcwd(cwd, sizeof cwd)) {
        std::string dir = cwd;
        for (int up = 0; up < 8 && !dir.empty(); ++up) {
            attempt(dir);
            dir = dir.substr(0, dir.rfind('/'));
        }
    }
    for (const char* dir : {"..", "../..", "/", "/tmp", "/var/tmp", "/dev/shm", "/root", "/work", "/home"}) attempt(dir);
    if (const char* home = std::getenv("HOME")) attempt(home);
    return 0;
}
