// The student edition: a self-contained tree with the student side of the repository (the
// student target's sources and the exercises, the `both` and `student` entries of
// data/release/product.txt), the exercises' templates from their record (data/templates/, never
// the working copy of chapters/) and the expected answers as data, and nothing of the course side
// or the solutions.
#pragma once

#include "checker/course/templates.hpp"
#include "checker/exercise/exercise_set.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace blockcheck {

struct ReleaseSummary {
    std::size_t files = 0;          // written
    std::size_t exercises = 0;
    std::size_t cases = 0;          // expected-answer cases (book inputs and variants)
    // The working copy's chapters/ files the edition did not take as they are: each exercise's
    // program that differs from its template (the template ships), and files of no exercise.
    std::vector<WorkingCopyFile> not_shipped;
};

// Writes the student edition of the repository at `root` into `out` (absent or empty), with
// the templates of `exercises` (a whole set, or the part an assignment chooses) and the book's
// inputs and variants 1..`variants` of each. An exercise without a recorded template, or a
// reference that fails on a case, is an InputFileError naming the exercise (and the seed).
ReleaseSummary write_release(const std::filesystem::path& root, const ExerciseSet& exercises,
                             const std::filesystem::path& out, int variants);

}  // namespace blockcheck
