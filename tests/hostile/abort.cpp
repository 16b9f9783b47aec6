// Calls std::abort(): SIGABRT.
#include <cstdlib>

int main() { std::abort(); }
