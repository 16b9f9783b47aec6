// Grading one program of one student: found or not, then judged on the one road (judge_program,
// checker/exercise/grading.hpp) in the batch's jail, on the book's inputs or the student's variant,
// and kept as the student's record; the grader's own failures become grader_fault verdicts, never
// the student's loss.
#pragma once

#include "checker/batch/settings.hpp"
#include "checker/common/submission_file.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/run/cache_prune.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

namespace blockcheck {

// Every part given the same verdict and message (missing source, unreadable submission, grader fault).
ExerciseRecord whole_exercise(const Exercise& e, Verdict verdict, const Text& message, Lang lang);

// A student's score and maximum: the sums over their exercises.
void settle(StudentRecord& record);

// The jail and the cache a batch's programs share; grade() may be called from several threads.
class ProgramGrader {
public:
    ProgramGrader(const GradeSettings& settings, std::filesystem::path cache_dir);

    Isolation isolation() const { return jail_.isolation(); }

    // Exercise `e` of `student`: `program` what was read for it (read_program; nullptr: none found),
    // `shown_as` its path inside the submission (as compiler messages and the record name it).
    ExerciseRecord grade(const Exercise& e, const std::string& student, const SubmittedProgram* program,
                         const std::string& shown_as);

    // What the batch's programs cost so far, summed over its workers.
    ProgramCosts costs() const;

private:
    void bound_cache(const std::string& student, const std::vector<std::filesystem::path>& stored);

    const GradeSettings& settings_;
    ProgramJail jail_;
    RunSettings run_settings_;  // the batch's road: its cache, limits and jail
    CacheShares shares_{grading_share_bytes};
    std::mutex prune_mutex_;
    std::size_t unpruned_ = 0;  // entries stored since the cache was last pruned
    mutable std::mutex costs_mutex_;
    ProgramCosts costs_;
};

}  // namespace blockcheck
