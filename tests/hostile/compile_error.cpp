// Does not compile: an undeclared name on line 5, then more errors.
#include <cstdio>

int main() {
    undeclared_name = 1;
    also_undeclared(2);
    std::printf("%d\n", third_one);
    int x = "four";
    return missing_five;
}
