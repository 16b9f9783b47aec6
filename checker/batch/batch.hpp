// Batch grading: a class's submissions (folders or archives), every exercise compiled and run
// in a jail, each student's result written as soon as it is known and reused on the next run
// when nothing it depends on changed; then the gradebook, JUnit, Gradescope and summary files.
// grade_class is the entry `blockcheck grade` and `blockcheck bench --grading` both go through.
#pragma once

#include "checker/batch/discovery.hpp"
#include "checker/batch/settings.hpp"

#include <functional>

namespace blockcheck {

// Called once a student is done (in order of completion, never concurrently).
struct GradeProgress {
    std::size_t done = 0, total = 0;
    const StudentRecord* record = nullptr;
    bool reused = false;  // unchanged since an earlier run: not graded again
};

struct GradeReport {
    std::vector<StudentRecord> students;  // by student id
    Isolation isolation = Isolation::limits_only;
    std::size_t graded = 0, reused = 0, bad_submissions = 0;
    std::size_t compiles = 0, compile_hits = 0, runs = 0;  // compile requests, answered from the cache, program runs
    double wall_seconds = 0;
    double compile_seconds = 0, run_seconds = 0, grader_seconds = 0;  // summed over the workers
    bool grader_faults = false;
    bool repeated_grader_faults = false;  // some repeated with the same key, and are no longer credited
};

// What grade_class found before grading: every submission, the shard's part of them, and the
// entries that are not submissions.
struct ClassFound {
    std::size_t all = 0, chosen = 0;
    const std::vector<IgnoredEntry>* ignored = nullptr;
};

struct ClassHooks {
    std::function<void(const ClassFound&)> found;             // once, before any grading
    std::function<void(const GradeProgress&)> progress;       // as grade_submissions calls it
};

// The submissions of `dirs` (find_submissions; only settings.shard's part when set; the other
// entries into settings.ignored), graded by grade_submissions into settings.out.
GradeReport grade_class(const ExerciseSet& set, const std::vector<std::filesystem::path>& dirs, GradeSettings settings,
                        const ClassHooks& hooks = {});

// Grades `submissions` into settings.out: results/<stem>.json (and gradescope/<stem>.json, the
// stem from student_file_stem) written atomically as each student finishes, reused when their
// key is unchanged, then gradebook.csv, junit.xml and summary.txt for exactly these students.
// The grader's own failures become grader_fault verdicts (never the student's loss); a result
// with one is graded again on the next run, and a fault that repeats with the same key is
// reported as repeated and no longer credited. A student whose results cannot be written loses
// nothing else: the failure is noted in their record. The output folder is locked for the whole
// run: while another grader holds it, this is an InputFileError naming that grader's pid.
GradeReport grade_submissions(const ExerciseSet& set, const std::vector<Submission>& submissions,
                              const GradeSettings& settings,
                              const std::function<void(const GradeProgress&)>& progress = {});

// gradebook.csv, junit.xml, summary.txt, insight.json, insight.csv and report.html (its prose in
// `lang`) for these students (every exercise of the set).
void write_class_files(const std::filesystem::path& out, const ExerciseSet& set, const std::vector<StudentRecord>& students,
                       const std::vector<IgnoredEntry>& ignored = {}, Lang lang = Lang::en);

}  // namespace blockcheck
