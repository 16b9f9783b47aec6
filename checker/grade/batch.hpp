// Batch grading: a class's submissions (folders or archives), every exercise compiled and run
// in a jail, each student's result written as soon as it is known and reused on the next run
// when nothing it depends on changed; then the gradebook, JUnit, Gradescope and summary files.
#pragma once

#include "checker/run/sandbox.hpp"
#include "checker/grade/gradebook.hpp"
#include "checker/exercise/grading.hpp"

#include <functional>
#include <optional>

namespace blockcheck {

// `--shard K/N`: the students whose id hashes to K (1-based) of N.
struct Shard {
    unsigned index = 1, count = 1;
    std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

// "2/5" -> {2, 5}; throws InputFileError for anything else (K must be 1..N).
Shard parse_shard(std::string_view text);

// Stable across runs and machines: the first 8 bytes of the id's SHA-256, modulo N.
bool in_shard(std::string_view student, const Shard& shard);

// One student's submission: a folder, or a .zip / .tar.gz / .tgz / .tar archive.
struct Submission {
    std::string student;          // the folder's name, or the archive's without its extension
    std::filesystem::path path;
    bool archive = false;
};

// Every entry of every folder in `dirs` that is a folder or an archive, sorted by student id.
// Every other entry (hidden names such as "..zip" or "...dots", links, other files) is listed in
// `ignored` with the reason, sorted by path. Two submissions with the same id (say ada/ and
// ada.zip) or a folder that does not exist are an InputFileError.
std::vector<Submission> find_submissions(const std::vector<std::filesystem::path>& dirs,
                                         std::vector<IgnoredEntry>* ignored = nullptr);

// A program's limits in a batch: CPU 2 s, wall 5 s, 512 MiB, 1 MiB of output, 16 MiB per file
// written, 64 open files, 64 processes.
Limits grading_run_limits();

struct GradeSettings {
    std::filesystem::path include_dir;  // chapters/: the students' header
    std::filesystem::path out;          // results/, gradescope/, the rendered files
    std::filesystem::path cache_dir;    // compiled programs by content; empty: <out>/.cache
    unsigned jobs = 2;                  // programs compiled and run at once
    bool variants = false;              // per-student inputs, seeded by variant_seed(student, exercise)
    bool reveal = false;                // expected values in the messages of wrong answers
    bool regrade = false;               // ignore the results of earlier runs
    bool write_gradescope = true;       // gradescope/<student>.json next to results/
    Lang lang = Lang::en;               // of the messages in every output
    Limits run_limits = grading_run_limits();
    Limits compile_limits = compiler_limits();
    std::optional<Shard> shard;         // recorded in the run's manifest
    std::vector<IgnoredEntry> ignored;  // entries of the submission folders that are not submissions: listed in summary.txt
};

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

// gradebook.csv, junit.xml, summary.txt and report.html for these students (every exercise of the set).
void write_class_files(const std::filesystem::path& out, const ExerciseSet& set, const std::vector<StudentRecord>& students,
                       const std::vector<IgnoredEntry>& ignored = {});

// Combines the outputs of `--shard` runs into `out`: results and Gradescope files copied, the
// class files rendered from them, so the result equals one run over all the students (`out` is
// locked as grade_submissions locks it). An output
// folder without a finished run, shards run with different exercises or variant settings, or a
// student in two shards with different results are InputFileErrors. Returns the students.
// `lang`: the language of the Gradescope files it writes for a shard that has none.
std::vector<StudentRecord> merge_outputs(const std::vector<std::filesystem::path>& shard_outs,
                                         const std::filesystem::path& out, const ExerciseSet& set,
                                         std::vector<std::string>* warnings = nullptr, Lang lang = Lang::en);

// `blockcheck bench --grading [N]`: N synthetic submissions graded cold, then again unchanged,
// with two jobs; prints submissions per second, where the time went and the cache hit rate.
int grading_bench(const std::filesystem::path& root, std::size_t students, bool as_json, Lang lang);

}  // namespace blockcheck
