// Unbounded recursion with a frame the optimiser cannot remove: SIGSEGV when the stack runs out.
#include <cstdio>

long depth(long n) {
    volatile char frame[1024];
    frame[0] = static_cast<char>(n);
    return depth(n + 1) + frame[0];
}

int main() { std::printf("%ld\n", depth(0)); }
