// Where a shared wrong answer comes from, for an author turning it into a catalogue entry
// (docs/authoring.md): the first step at which the students' numbers depart from what their own
// earlier values give (the exercise's declared steps, as the tutor judges a step), and the
// catalogue mistakes whose values come closest, on the book's inputs and on that step from the
// students' own values of its feeds. Single mistakes only: the catalogue has no pairs to rank yet.
#pragma once

#include "checker/insight/insight.hpp"

#include <optional>

namespace blockcheck {

// Mistakes listed per group and per kind, nearest first.
inline constexpr std::size_t closest_listed = 3;

// Fills each group's departs_at, departing, right_distance, closest and closest_at_step from its
// exercise's provider (answers_and_mistakes and answers_from_given on the book's inputs). What the
// provider cannot give (the student edition's steps, a reference that fails) is left empty.
void trace_shared_answers(const ExerciseSet& set, const std::vector<StudentRecord>& students,
                          std::vector<SharedAnswer>& groups);

// "gelu_for_silu 0.001, relu_for_silu 0.4; at step silu, from their own earlier values: gelu_for_silu 0.001"
// in the reader's language ("" when nothing is near).
std::string nearest_text(const std::vector<NearMistake>& closest, const std::string& step,
                         const std::vector<NearMistake>& at_step, Lang lang);

// ||a - b|| / ||b|| over every number (Euclidean norms; ||a - b|| when b is zero); nullopt when
// either is not numbers or their shapes differ.
std::optional<double> relative_distance(const Value& a, const Value& b);

}  // namespace blockcheck
