// One grader at a time in an output folder, and output folders only the grader can read.
#pragma once

#include "checker/common/fd.hpp"

#include <filesystem>

namespace blockcheck {

// Creates `dir` (and its parents) and makes it readable by its owner only: grades are private.
void make_private_folder(const std::filesystem::path& dir);

// An exclusive lock (flock) on <out>/.grade-lock for as long as it lives, so two graders never
// write into one output folder; the file holds the pid of the grader that has it. While
// another grader holds it, the constructor throws an InputFileError naming that grader's pid.
class OutputLock {
public:
    explicit OutputLock(const std::filesystem::path& out);
    // Closing the file releases the lock.

private:
    Fd fd_;
};

}  // namespace blockcheck
