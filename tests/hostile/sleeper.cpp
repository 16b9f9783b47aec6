// Uses no CPU and never finishes: only the wall clock stops it.
#include <chrono>
#include <thread>

int main() { std::this_thread::sleep_for(std::chrono::hours(1)); }
