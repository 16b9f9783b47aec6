// Hunts the file system for other students' work and the grader's files, and prints what it
// finds: every readable .cpp, .json, .csv or .zip outside /usr and /proc, and any file holding
// the marker BLOCKCHECK-SECRET. Inside the jail it should find nothing of anyone else's.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace {

int found = 0, looked = 0;
struct stat self {};  // its own binary holds the marker too: not a find

bool ends_with(const std::string& s, const char* suffix) {
    const std::size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

void look_at(const std::string& path, const struct stat& st) {
    if (st.st_dev == self.st_dev && st.st_ino == self.st_ino) return;
    std::ifstream in(path, std::ios::binary);
    if (!in) return;
    std::ostringstream text;
    text << in.rdbuf();
    const std::string content = text.str().substr(0, 1 << 20);
    const bool interesting = ends_with(path, ".cpp") || ends_with(path, ".json") || ends_with(path, ".csv") ||
                             ends_with(path, ".zip") || ends_with(path, ".gz") ||
                             content.find("BLOCKCHECK-SECRET") != std::string::npos;
    if (interesting && found < 40) {
        ++found;
        std::printf("found: %s (%zu bytes)%s\n", path.c_str(), content.size(),
                    content.find("BLOCKCHECK-SECRET") != std::string::npos ? " holding BLOCKCHECK-SECRET" : "");
    }
}

void walk(const std::string& dir, int depth) {
    if (depth > 12 || looked > 200000) return;
    if (dir == "/proc" || dir == "/sys" || dir == "/dev" || dir == "/usr") return;
    DIR* d = ::opendir(dir.c_str());
    if (!d) return;
    while (dirent* e = ::readdir(d)) {
        if (!std::strcmp(e->d_name, ".") || !std::strcmp(e->d_name, "..")) continue;
        ++looked;
        const std::string path = (dir == "/" ? "" : dir) + "/" + e->d_name;
        struct stat st {};
        if (::lstat(path.c_str(), &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) walk(path, depth + 1);
        else if (S_ISREG(st.st_mode)) look_at(path, st);
    }
    ::closedir(d);
}

}  // namespace

int main() {
    ::stat("/proc/self/exe", &self);
    walk("/", 0);
    // Places a grader often keeps things, in case the walk could not list them.
    for (const char* p : {"/autograder/submission", "/autograder/source", "/work", "/root", "/home", "/srv", "/tmp",
                          "/var/tmp", "/etc/shadow", "/etc/passwd"})
        if (::access(p, R_OK) == 0) std::printf("readable: %s\n", p);
    std::printf("hunt_found = %d\n", found);
    return 0;
}
