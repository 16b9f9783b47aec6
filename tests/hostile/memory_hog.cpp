// Allocates and touches 64 MiB blocks without end: stopped by the memory limit (RLIMIT_AS),
// as std::bad_alloc -> std::terminate -> SIGABRT.
#include <cstring>
#include <vector>

int main() {
    std::vector<char*> blocks;
    for (;;) {
        char* block = new char[64 << 20];
        std::memset(block, 1, 64 << 20);
        blocks.push_back(block);
    }
}
