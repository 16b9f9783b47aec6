// Grading one exercise: the reference answers for its inputs, the program's output parsed and
// compared part by part, or the whole exercise lost to a compile error, crash or timeout.
#pragma once

#include "checker/run/compile.hpp"
#include "checker/exercise/exercise_set.hpp"
#include "checker/exercise/protocol.hpp"

#include <optional>

namespace blockcheck {

struct ExerciseResult {
    std::string id;
    std::string status = "not_done";  // "done": every part correct; "not_done": no answer yet; "failing"
    double score = 0, max_score = 0;
    std::vector<PartResult> parts;
    std::vector<ProtocolIssue> issues;   // output lines that are not answers of this exercise
    Text note;                           // compiler messages, or how the program ended
    std::optional<std::uint64_t> variant;
    double compile_seconds = 0, run_seconds = 0;

    const PartResult* first_failing_part() const;
    // The verdict that took every part at once (compile error, crash, timeout, output flood,
    // grader fault), if that is what happened.
    std::optional<Verdict> whole_program_verdict() const;
};

// "does not compile", "crashed", ... in the reader's language.
std::string whole_program_label(Verdict verdict, Lang lang);

// The reference solution's answers for these inputs (50 digits, through the block).
Values reference_answers(const Exercise& exercise, const InputList& inputs);

// Grades a program's standard output against the reference answers for `inputs`.
ExerciseResult grade_output(const Exercise& exercise, const InputList& inputs, std::string_view output,
                            const AnswerCompareOptions& options);

// Every part lost to the same cause (compile error, crash, timeout, output flood, grader fault).
ExerciseResult failed_exercise(const Exercise& exercise, Verdict verdict, Text note);

// How a run that did not exit cleanly ended (the last lines of its stderr included), and the
// verdict that costs: timed_out, output_limit, crashed, or grader_fault when it never started.
Text describe_end(const RunResult& run, const Limits& limits);
Verdict verdict_of_end(RunStatus status);

// Where and how programs are built and run.
struct RunSettings {
    std::filesystem::path include_dir;  // chapters/: the students' header
    std::filesystem::path cache_dir;    // compiled binaries, by content
    Limits limits;                      // for the program's run
    const Sandbox* sandbox = nullptr;
};

// Compiles (or reuses) the program, runs it on the inputs, grades what it printed.
ExerciseResult check_program(const Exercise& exercise, const std::filesystem::path& source, const InputList& inputs,
                             const RunSettings& settings, const AnswerCompareOptions& options);

}  // namespace blockcheck
