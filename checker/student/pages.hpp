// The texts `show`, `list` and `hint` print, as strings (the commands print them; tests read
// them in both languages).
#pragma once

#include "checker/student/workspace.hpp"

#include <string>

namespace blockcheck {

// `show ID`: the task, its inputs, what to print and the commands for this exercise.
std::string show_text(const ExerciseSet& set, const Exercise& e, Lang lang);

// `list`: one row an exercise with its status from the last check.
std::string list_text(const Workspace& workspace, Lang lang);

// `hint ID`: hint `index` (from 0), then what to run next (`by_number`: it was asked for as `hint ID N`).
std::string hint_text(const Exercise& e, std::size_t index, bool by_number, Lang lang);

}  // namespace blockcheck
