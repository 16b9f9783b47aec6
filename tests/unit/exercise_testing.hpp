// What the tests of the shipped exercises share: the repository they run in, and its exercise set
// loaded once for the whole suite.
#pragma once

#include "checker/exercise/exercise_set.hpp"
#include "source_tree.hpp"

namespace blockcheck::testing {

// data/exercises/ as shipped, loaded once.
inline const ExerciseSet& shipped_exercises() {
    static const ExerciseSet set = ExerciseSet::load(repository());
    return set;
}

}  // namespace blockcheck::testing
