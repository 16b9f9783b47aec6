// A batch's results as records, their JSON (results/<student>.json, the single source of
// truth), and what is rendered from them: gradebook.csv, junit.xml and summary.txt (Gradescope's
// results.json: gradescope.hpp). Rendering is a pure function of the records, so a merged set of shards
// renders exactly as one run over the same students would.
#pragma once

#include "checker/common/csv.hpp"
#include "checker/exercise/exercise_set.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockcheck {

struct PartRecord {
    std::string name, verdict;  // verdict: the contract's names ("correct", "compile_error", ...)
    double score = 0, max_score = 0;
    std::string message;
    std::string diagnosis_id, diagnosis_message;  // the classic mistake that explains the value; "" when none
    std::string given;                            // a wrong answer's printed value (insight.hpp); "" otherwise
    bool follows = false;  // wrong only through an earlier part: right from the student's own earlier values
};

struct ExerciseRecord {
    std::string id, status;                  // status: done, not_done, failing
    double score = 0, max_score = 0;         // parts the grader failed on are credited
    std::optional<std::uint64_t> variant;    // the seed of the inputs, when not the book's
    std::string source;                      // where in the submission the program was found; "" when none
    std::string note;                        // compiler messages, or how the program ended
    std::vector<std::string> issues;         // output lines that were not answers
    double compile_seconds = 0, run_seconds = 0;
    bool compile_cached = false;             // the binary (or the compile error) came from the cache
    std::string compiler;                    // whose build decided the verdict: "g++" or "clang"; "" when none
    bool redecided = false;                  // clang's build was short of full marks: g++'s verdict
    bool fault_repeated = false;             // the grader failed here on the run before too, with the same
                                             // key: reported, and its parts no longer credited
    std::vector<PartRecord> parts;
    // Graded on a variant: the parts the program gets wrong on the book's inputs too, as feedback
    // without points (their verdict, message and diagnosis; no score), where that says more than
    // the variant's part does; empty otherwise.
    std::vector<PartRecord> book_parts;
    std::string code_shape;                  // the program's normal form, insight_code.hpp; "" when none

    bool has_grader_fault() const;
};

// A *.cpp file of a submission named after no exercise: never graded under another name unless
// the instructor allowed near names (then `graded_as` is the exercise it was graded as).
struct MisnamedFile {
    std::string file;       // relative to the submission
    std::string nearest;    // the closest exercise file name; "" when none is close
    std::string graded_as;  // the exercise id it was graded as (--accept-near-names); "" when not graded
};

// The book's inputs' feedback on part `name` of an exercise graded on a variant ("On the book's
// inputs: wrong ... (likely mistake sigmoid_for_silu: ...)"); "" when it has none.
std::string book_feedback_text(const ExerciseRecord& e, const std::string& name, Lang lang);

// The parts of an exercise that printed the same text on the book's inputs and on the student's
// variant, right on the first and wrong on the second (the hard_coded diagnosis), in order.
std::vector<std::string> printed_constant_parts(const ExerciseRecord& e);
// What was observed of them, for a person to look at (never a verdict of cheating): "gate, up:
// the same text printed on the book's inputs and on variant 7 (right on the first, wrong on the
// second): the book's numbers printed instead of computed?"; "" when none.
std::string printed_constants_text(const ExerciseRecord& e, Lang lang);

// "kv_cache_size.cpp: did you mean kv_cache_sizes.cpp?" in the reader's language.
std::string misnamed_text(const MisnamedFile& m, Lang lang);
// "and 3 more files named after no exercise": the misnamed files beyond those listed.
std::string misnamed_more_text(std::size_t more, Lang lang);

struct StudentRecord {
    std::string student;     // the id: folder or archive name without extension
    std::string submission;  // that folder's or archive's name
    std::string key;         // hash of everything the result depends on; equal key, equal result
    std::string error;       // why the submission could not be read (a bad archive); "" when it could
    bool variants = false;
    double score = 0, max_score = 0;
    double seconds = 0;      // wall time spent on this student
    std::vector<std::string> notes;  // remarks on how the sources were found
    std::vector<MisnamedFile> misnamed;  // at most max_misnamed_listed, by path
    std::size_t misnamed_more = 0;       // misnamed files beyond those listed
    bool unsandboxed = false;        // graded with --no-sandbox (sandbox_policy.hpp): every output says so
    std::vector<ExerciseRecord> exercises;

    bool has_grader_fault() const;
    bool has_repeated_grader_fault() const;
};

// An entry of a submissions folder that was not graded, and why ("a hidden name", "a link", ...).
struct IgnoredEntry {
    std::string path;
    Text reason;
};

// results/<student>.json and back. from_json throws std::runtime_error for a record that is
// not one (a damaged or foreign file).
nlohmann::ordered_json student_json(const StudentRecord& record);
StudentRecord student_from_json(const nlohmann::json& json);

// Scores as written in every output: shortest round-trip form of the value rounded to 1e-9 ("2.5", "3").
std::string score_text(double score);

// One row a student (sorted as given), one column an exercise of `exercises` (in that order),
// then the total; cells written by csv_cell (RFC 4180, no formula) of printable_id (no control
// byte), CRLF line ends. Parts the grader failed on are credited (as
// grade_part and failed_exercise do); summary.txt lists them.
std::string gradebook_csv(const std::vector<const Exercise*>& exercises, const std::vector<StudentRecord>& students);

// One testsuite a student, one testcase an answer part: failure for a wrong, missing,
// unparseable or too-short answer, error for a compile error, crash, timeout, output flood or
// unreadable submission, skipped for a fault of the grader. Written by pugixml; every text a
// student controls goes through printable_text, so no control byte reaches the XML.
// A part wrong on the book's inputs too (book_parts) adds that feedback to its failure's text.
std::string junit_xml(const std::vector<StudentRecord>& students, Lang lang = Lang::en);


// The class table: per-exercise mean, full marks and a histogram, the total, verdict counts,
// unreadable submissions, grader faults (once, and repeated) and the entries that were ignored.
std::string summary_text(const std::vector<const Exercise*>& exercises, const std::vector<StudentRecord>& students,
                         const std::vector<IgnoredEntry>& ignored = {});

// JSON text that never throws on invalid UTF-8 (it is replaced).
std::string dump_json(const nlohmann::ordered_json& json, int indent = 2);

}  // namespace blockcheck
