// Answers and programs shared without a reason: groups for a person to look at, never a verdict.
#pragma once

#include "checker/insight/insight.hpp"

#include <string_view>

namespace blockcheck {

// Keeps, on each wrong part of `record`, the value the program printed for it (the text right of
// '=' on its answer line, at most 200 bytes, made printable by the protocol reader).
void keep_wrong_answers(ExerciseRecord& record, std::string_view output);

// A wrong answer counts as evidence only with at least this many digits: a shorter one is a
// coincidence too easily.
inline constexpr std::size_t shared_answer_min_digits = 6;

// Students whose wrong answers to a part agree to every printed character, on the book's inputs,
// where no classic mistake explains the answer; groups of two or more, in the set's order.
std::vector<SharedAnswer> shared_answers(const ExerciseSet& set, const std::vector<StudentRecord>& students);

// Students whose programs for an exercise have the same normal form, among the programs that
// answered something; groups of more than a fifth of those programs (at least 3) go to `common`.
std::vector<SharedCode> shared_code(const ExerciseSet& set, const std::vector<StudentRecord>& students,
                                    std::vector<SharedCode>& common);

}  // namespace blockcheck
