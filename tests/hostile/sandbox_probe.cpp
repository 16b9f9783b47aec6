// Tries to read argv[1] and to create argv[2]; prints "read ok|failed" and "write ok|failed".
#include <fstream>
#include <iostream>

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    std::ifstream in(argv[1]);
    std::string line;
    std::cout << "read " << (in && std::getline(in, line) ? "ok" : "failed") << "\n";
    std::ofstream out(argv[2]);
    out << "escaped\n";
    out.flush();
    std::cout << "write " << (out ? "ok" : "failed") << "\n";
    return 0;
}
