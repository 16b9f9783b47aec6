// Merging the outputs of `--shard` runs into one output, as if one run had graded every student.
#pragma once

#include "checker/exercise/exercise_set.hpp"
#include "checker/outputs/gradebook.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace blockcheck {

// Combines the outputs of `--shard` runs into `out`: results and Gradescope files copied, the
// class files rendered from them, so the result equals one run over all the students (`out` is
// locked as grade_submissions locks it). An output folder without a finished run, shards run
// with different exercises or variant settings, or a student in two shards with different
// results are InputFileErrors. Missing or repeated shards are `warnings`. Returns the students.
// `lang`: the language of the Gradescope files it writes for a shard that has none.
std::vector<StudentRecord> merge_outputs(const std::vector<std::filesystem::path>& shard_outs,
                                         const std::filesystem::path& out, const ExerciseSet& set,
                                         std::vector<std::string>* warnings = nullptr, Lang lang = Lang::en);

}  // namespace blockcheck
