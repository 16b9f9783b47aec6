// Per-student variants: inputs drawn from the ranges in the exercise definitions, so a program
// that prints the book's constants passes only the book's case.
#pragma once

#include "checker/exercise/exercise_set.hpp"

#include <cstdint>
#include <string_view>

namespace blockcheck {

// A stable seed for one student and one exercise: the first 8 bytes (big-endian) of the SHA-256
// of "student/exercise". The inputs of a seed draw from it XOR the same of each input's name.
std::uint64_t variant_seed(std::string_view student, std::string_view exercise_id);

// The inputs of variant `seed`: each input that has a range drawn from it, the rest as in
// the book. The same seed gives the same inputs on every machine.
InputList variant_inputs(const Exercise& exercise, std::uint64_t seed);

}  // namespace blockcheck
