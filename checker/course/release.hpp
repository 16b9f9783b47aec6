// The student edition: a self-contained tree with the student side of the repository (the
// student target's sources and the exercises, listed in data/release/student_side.txt) and the
// expected answers as data, and nothing of the course side or the solutions.
#pragma once

#include "checker/exercise/exercise_set.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace blockcheck {

struct ReleaseSummary {
    std::size_t files = 0;          // written
    std::size_t exercises = 0;
    std::size_t cases = 0;          // expected-answer cases (book inputs and variants)
};

// Writes the student edition of the repository at `root` into `out` (absent or empty), with
// the book's inputs and variants 1..`variants` of every exercise. A reference that fails on a
// case is an InputFileError naming the exercise and the seed.
ReleaseSummary write_release(const std::filesystem::path& root, const ExerciseSet& exercises,
                             const std::filesystem::path& out, int variants);

// One line of data/release/student_side.txt: what the student side is made of.
struct StudentSideEntry {
    std::string kind;  // sources, main, data or root
    std::string path;  // relative to the repository
    int line = 0;
};

// The entries of `root`/data/release/student_side.txt, which CMakeLists.txt builds the student
// target from and `release` copies. A line of another form, or a path that names nothing, is an
// InputFileError naming the file and line.
std::vector<StudentSideEntry> read_student_side(const std::filesystem::path& root);

}  // namespace blockcheck
