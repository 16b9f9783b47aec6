// Which exercises a course command counts: a whole chapter (--chapter), an assignment file
// (--assignment FILE: {"name", "exercises": [{"id", "points"?}]}, docs/instructors.md) or a
// quick list (--exercises a,b,c); at most one of the three. grade, gradescope-package,
// classroom and release read them the same way.
#pragma once

#include "checker/exercise/exercise_set.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace blockcheck {

// Assignment and read_assignment: checker/exercise/exercise_set.hpp (the student edition reads its
// released assignment too).

// "a,b,c" (spaces around the commas allowed) as an assignment named "exercises".
Assignment assignment_from_list(const std::string& ids);
// The assignment as its JSON file would read.
std::string assignment_json(const Assignment& assignment);

struct ExerciseChoice {
    std::vector<std::string> chapters;
    std::string assignment_file, exercises;  // "" when not given

    bool whole() const { return chapters.empty() && assignment_file.empty() && exercises.empty(); }
};

// Adds --chapter, --assignment and --exercises to `cmd`.
void add_exercise_choice(CLI::App* cmd, ExerciseChoice& choice);

// The assignment of --assignment or --exercises; nullopt for --chapter or none.
std::optional<Assignment> chosen_assignment(const ExerciseChoice& choice);

// `all` narrowed to the choice: its chapters, or the assignment's exercises with their points.
// Two of the three ways at once is an InputFileError (exit 2).
ExerciseSet chosen_exercises(const ExerciseSet& all, const ExerciseChoice& choice);

}  // namespace blockcheck
