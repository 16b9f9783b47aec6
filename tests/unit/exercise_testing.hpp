// What the tests of the shipped exercises share: the repository they run in, and its exercise set
// loaded once for the whole suite.
#pragma once

#include "checker/exercise/exercise_set.hpp"

#include <filesystem>

namespace blockcheck::testing {

// The source tree the tests were built from (data/, chapters/, tests/).
inline const std::filesystem::path& repository() {
    static const std::filesystem::path root = BLOCKCHECK_SOURCE_DIR;
    return root;
}

// data/exercises/ as shipped, loaded once.
inline const ExerciseSet& shipped_exercises() {
    static const ExerciseSet set = ExerciseSet::load(repository());
    return set;
}

}  // namespace blockcheck::testing
