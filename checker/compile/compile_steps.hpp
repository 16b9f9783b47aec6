// One fast compile taken apart into its steps, each run as a whole process, side by side in one
// run (`bench --grading`, docs/performance.md): where a compile's time goes on this machine now.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace blockcheck {

// The median of `xs` (0 when empty; the mean of the middle two when their count is even).
double median_of(std::vector<double> xs);

// Medians in seconds over `rounds` rounds; in each round every step runs once, in this order.
struct CompileStepTimes {
    std::size_t rounds = 0;
    std::string compiler;    // `g++ --version`, first line
    std::string linker;      // linker_name(CompileWay::fast)
    std::string interface;   // what a program reads of the header, e.g. "precompiled (26.6 MB; ...)"
    double empty = 0;        // g++ -c on `int main() {}`: the compiler's start
    double header = 0;       // g++ -c on `#include "blockcheck.hpp"` and an empty main, the interface used
    double header_whole = 0;  // the same for a program naming a special math function (the header with them)
    double program = 0;      // g++ -c on the program: the header and the program's own code
    double boilerplate_read = 0;         // the program with `#include <iostream>` after the header's, read as text
    double boilerplate_precompiled = 0;  // the same with both includes precompiled (its preamble)
    double link = 0;         // g++ linking the program's object with the header's archive
    double bare_true = 0;    // /usr/bin/true as a plain process
    double jailed_true = 0;  // /usr/bin/true in the compile jail (bubblewrap, the throw-away uid as root)
    double whole = 0;        // compile_program, uncached: the compile as grading runs it
    std::string failed;      // why the steps could not be measured; empty when they were
};

// Times the steps of compiling `programs` (the instructor's solved programs, taken in turn, a
// fresh copy each round so that the whole compile is never a cache hit) against include_dir, with
// the header built in cache_dir. The steps outside the jail run as this process's user: pass only
// programs you trust.
CompileStepTimes time_compile_steps(const std::vector<std::filesystem::path>& programs,
                                    const std::filesystem::path& include_dir, const std::filesystem::path& cache_dir,
                                    std::size_t rounds);

}  // namespace blockcheck
