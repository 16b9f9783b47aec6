// Prints without end on stdout and stderr: stopped by the output cap.
#include <cstdio>

int main() {
    for (;;) {
        std::fputs("flood flood flood flood flood flood flood flood flood flood flood flood\n", stdout);
        std::fputs("err\n", stderr);
    }
}
