// What `check` prints: the progress board, each exercise's parts, and the JSON for tools.
#pragma once

#include "checker/exercise/grading.hpp"

#include <nlohmann/json.hpp>

namespace blockcheck {

struct BoardStyle {
    Lang lang = Lang::en;
    bool color = false;
    bool on_variants = false;  // the results are of variant inputs: no "try other inputs" at the end
};

// Whether a note on the result says the program prints the book's numbers (the hard_coded
// diagnosis): such an exercise is never done, whatever its score.
bool says_book_numbers(const ExerciseResult& result);
// The same result, "failing" when it says so.
void fail_book_numbers(ExerciseResult& result);
// Whether part `part` is right on these inputs and wrong on the probe's variant.
bool wrong_on_variant(const ExerciseResult& result, const std::string& part);
// Full marks, and nothing the probe found wrong: what `check --exit-code` counts as done.
bool fully_done(const ExerciseResult& result);

// One line an exercise with its first failing part; then progress and what to do next: the
// first failing exercise, else the first not started.
std::string render_board(const ExerciseSet& set, const std::vector<const Exercise*>& exercises, const std::vector<ExerciseResult>& results,
                         const BoardStyle& style);

// Every part of one exercise with its verdict and message, the compiler's or crash's note, and
// the output lines that were not answers.
std::string render_parts(const Exercise& exercise, const ExerciseResult& result, const BoardStyle& style);

// `check --json`: the contract's field names.
nlohmann::ordered_json results_json(const std::vector<ExerciseResult>& results, Lang lang);
nlohmann::ordered_json result_json(const ExerciseResult& result, Lang lang);

}  // namespace blockcheck
