// Resuming a batch: what a student's result depends on (a key over the grader, the compiler,
// the headers, the exercises, the limits and the student's sources), an earlier result reused
// when its key is unchanged, and the manifest of a finished run that merging reads.
#pragma once

#include "checker/common/hashing.hpp"
#include "checker/common/submission_file.hpp"
#include "checker/batch/discovery.hpp"
#include "checker/batch/settings.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>

namespace blockcheck {

// The file in an output folder that says a run finished there, and with what.
inline constexpr const char* manifest_name = ".grade-run.json";

// Everything every student's result depends on apart from their own sources.
Digest run_fingerprint(const ExerciseSet& set, const GradeSettings& settings, Isolation isolation);

// The exercise definitions alone: shards to be merged must agree on them.
std::string exercises_fingerprint(const ExerciseSet& set);

// A student's key: the run's fingerprint, the id, and for each exercise where its source is and
// what was read for it (read_program: the source's and the headers' beside it names and bytes,
// or why it could not be read): the very bytes the compile gets. programs[i] empty: none found.
std::string student_key(const Digest& fingerprint, const std::string& student, const Sources& sources,
                        const std::vector<std::optional<SubmittedProgram>>& programs);

// What an earlier run left for a student in `results_dir`.
struct EarlierResult {
    std::optional<StudentRecord> reusable;  // same id and key, no grader fault: not graded again
    std::set<std::string> faults;           // exercises the grader failed on, with this same key
};
// A missing, damaged or foreign file, or one of another key, leaves nothing to reuse.
EarlierResult earlier_result(const std::filesystem::path& results_dir, const std::string& student, const std::string& key);

// A grader fault on an exercise that had one on the run before, with the same key, is marked
// repeated and no longer credited (its parts score 0, the exercise is failing): a fault that
// does not go away needs a person.
void mark_repeated_faults(StudentRecord& record, const std::set<std::string>& earlier_faults);

// The manifest of a finished run: the result files it covers, the shard, variants, exercises
// (their fingerprint, and each one's points as graded: [{"id", "points"}]).
nlohmann::ordered_json run_manifest(const ExerciseSet& set, bool variants, const std::optional<Shard>& shard,
                                    const std::vector<StudentRecord>& students);

// The exercises a finished run in `out` graded, at the points it graded them (its manifest);
// an InputFileError naming the file where there is none, or one written before points were.
Assignment graded_assignment(const std::filesystem::path& out);

}  // namespace blockcheck
