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

// The variant a student is graded on: the first of their draws (variant_seed(student, id), then
// of student + "#1", "#2", ...) on which every mistake the book's inputs show changes an answer at
// its precision, so that no draw hides a slip the book would catch (a query at position 0 and a
// key turned by a half turn look the same turned clockwise and counter-clockwise); after
// student_variant_draws draws, the one hiding the fewest. The first draw where the exercise has no
// ranges or no reference (the student edition's carried variants).
inline constexpr int student_variant_draws = 8;
std::uint64_t student_variant_seed(const Exercise& exercise, const std::string& student);

}  // namespace blockcheck
