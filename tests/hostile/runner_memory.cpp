// Hunts for earlier programs' inputs and outputs in the memory of its jail's first process: reads
// /proc/1/maps, then every readable region of /proc/1/mem, and prints each line that holds the
// marker "canary-5e1f = " (built at run time, so this binary's own bytes never match) as
// "found LINE", then "maps readable|unreadable" and "regions N". In a jail session whose first
// process was a copy of the runner, freed memory still held the stdin and stdout of programs run
// before.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string marker() {
    std::string m = " = f1e5-yranac";
    std::reverse(m.begin(), m.end());
    return m;
}

// The printable line around `at` (up to 80 bytes after it).
std::string line_at(const std::string& bytes, std::size_t at) {
    std::string line;
    for (std::size_t i = at; i < bytes.size() && i < at + 80; ++i) {
        const char c = bytes[i];
        if (c < ' ' || c > '~') break;
        line += c;
    }
    return line;
}

}  // namespace

int main() {
    std::ifstream maps("/proc/1/maps");
    std::string line;
    std::vector<std::pair<unsigned long, unsigned long>> regions;
    while (std::getline(maps, line)) {
        unsigned long from = 0, to = 0;
        char perms[5] = {};
        if (std::sscanf(line.c_str(), "%lx-%lx %4s", &from, &to, perms) == 3 && perms[0] == 'r')
            regions.emplace_back(from, to);
    }
    std::printf("maps %s\n", regions.empty() ? "unreadable" : "readable");
    const int mem = open("/proc/1/mem", O_RDONLY);
    std::set<std::string> found;
    const std::string wanted = marker();
    for (const auto& [from, to] : regions) {
        if (mem < 0 || to - from > (std::size_t{256} << 20)) continue;
        std::string bytes(to - from, '\0');
        const ssize_t got = pread(mem, bytes.data(), bytes.size(), static_cast<off_t>(from));
        if (got <= 0) continue;
        bytes.resize(static_cast<std::size_t>(got));
        for (std::size_t at = bytes.find(wanted); at != std::string::npos; at = bytes.find(wanted, at + 1))
            found.insert(line_at(bytes, at));
    }
    for (const std::string& f : found) std::printf("found %s\n", f.c_str());
    std::printf("regions %zu mem %s\n", regions.size(), mem < 0 ? "unreadable" : "open");
}
