// Grading one program of one student: found or not, readable, compiled (through the content
// cache), run in the batch's jail on the book's inputs or the student's variant, compared; the
// grader's own failures become grader_fault verdicts, never the student's loss.
#pragma once

#include "checker/common/submission_file.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/grade/settings.hpp"
#include "checker/run/cache_prune.hpp"

#include <atomic>
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

// What a batch's programs cost, summed over its workers.
struct ProgramCosts {
    std::size_t compiles = 0, compile_hits = 0, runs = 0;  // compile requests, answered from the cache, program runs
    double compile_seconds = 0, run_seconds = 0;
};

// The jail and the cache a batch's programs share; grade() may be called from several threads.
class ProgramGrader {
public:
    ProgramGrader(const GradeSettings& settings, std::filesystem::path cache_dir);

    Isolation isolation() const { return jail_.isolation(); }

    // Exercise `e` of `student`: `program` what was read for it (read_program; nullptr: none found),
    // `shown_as` its path inside the submission (as compiler messages and the record name it).
    ExerciseRecord grade(const Exercise& e, const std::string& student, const SubmittedProgram* program,
                         const std::string& shown_as);

    ProgramCosts costs() const;

private:
    ExerciseRecord compile_and_run(const Exercise& e, const std::string& student, const SubmittedProgram& program,
                                   const std::string& shown_as, std::optional<std::uint64_t> seed);
    void bound_cache(const std::string& student, const std::vector<std::filesystem::path>& stored);

    const GradeSettings& settings_;
    std::filesystem::path cache_dir_;
    ProgramJail jail_;
    CacheShares shares_{grading_share_bytes};
    std::mutex prune_mutex_;
    std::size_t unpruned_ = 0;  // entries stored since the cache was last pruned
    std::atomic<std::size_t> compiles_{0}, compile_hits_{0}, runs_{0};
    mutable std::mutex time_mutex_;
    double compile_seconds_ = 0, run_seconds_ = 0;
};

}  // namespace blockcheck
