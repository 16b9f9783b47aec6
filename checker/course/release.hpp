// The student edition: a self-contained tree with the students' side of the repository and the
// expected answers as data, and nothing of the solutions.
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

// The folders and files of the repository that go into the student edition as they are.
const std::vector<std::string>& release_copied_paths();

}  // namespace blockcheck
