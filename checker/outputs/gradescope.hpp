// Gradescope, the one place its formats are written and read: a student's results.json (the
// per-student file of a batch, gradescope/<student>.json), the autograder's results.json with
// the visibility of each test (or its refusal without a sandbox), and the submitter's id from
// submission_metadata.json
// (docs/platforms.md has the schema).
#pragma once

#include "checker/outputs/gradebook.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace blockcheck {

// Gradescope's results.json for one student: score, output, tests[] (one per answer part, with
// name, score, max_score, status "passed"/"failed", output). A credited grader fault passes. A
// part wrong on the book's inputs too (graded on a variant) is followed by a failed test without
// points, "<id>: <part> (book's inputs)", holding that feedback. The wrapping prose is in `lang`;
// the parts' messages are in the language they were graded in.
nlohmann::ordered_json gradescope_json(const StudentRecord& student, Lang lang);

// results.json for one graded submission. Without `book`, every test is scored and visible.
// With `book` (the same submission graded on the book's inputs, when `scored` used variant
// inputs): the scored tests are shown only after the due date, and the book's tests come first
// as visible feedback without points, so a student sees what to fix without seeing the
// variant's verdicts (the scored record's own book's-inputs tests are left out: the book's
// run tells every part). Top level: score, output, output_format "text", visibility "visible",
// stdout_visibility "hidden", tests[] with name, score, max_score, status, output, visibility.
nlohmann::ordered_json gradescope_results(const StudentRecord& scored, const StudentRecord* book, Lang lang);

// results.json when the autograder refused for want of a sandbox: score 0, and a failed test
// that tells the student this is not their grade.
nlohmann::ordered_json gradescope_refusal(Lang lang);

// The id a Gradescope submission's variants are seeded with: the first user's email, sid or id
// in submission_metadata.json; "submission" when the file is missing or holds none. When the file
// cannot be read or parsed (a pipe, a link to a device, too large, nested too deep), `problem`
// gets why, naming the file, and "submission" is returned.
std::string gradescope_submitter(const std::filesystem::path& metadata, std::string* problem = nullptr);

}  // namespace blockcheck
