// Gradescope's results.json as an autograder writes it: the score, one test per answer part,
// and the visibility Gradescope shows each test with (docs/platforms.md has the schema).
#pragma once

#include "checker/grade/gradebook.hpp"

#include <nlohmann/json.hpp>

namespace blockcheck {

// results.json for one graded submission. Without `book`, every test is scored and visible.
// With `book` (the same submission graded on the book's inputs, when `scored` used variant
// inputs): the scored tests are shown only after the due date, and the book's tests come first
// as visible feedback without points, so a student sees what to fix without seeing the
// variant's verdicts. Top level: score, output, output_format "text", visibility "visible",
// stdout_visibility "hidden", tests[] with name, score, max_score, status, output, visibility.
nlohmann::ordered_json gradescope_results(const StudentRecord& scored, const StudentRecord* book, Lang lang);

}  // namespace blockcheck
