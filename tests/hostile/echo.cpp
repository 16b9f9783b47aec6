// The honest program: copies stdin to stdout and exits 0.
#include <iostream>

int main() {
    std::cout << std::cin.rdbuf();
    return 0;
}
