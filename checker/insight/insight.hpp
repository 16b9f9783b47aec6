// The instructor's view of a graded class (issue 25): per exercise part, how many students got it
// right, inexact but accepted (float), wrong with each diagnosed classic mistake, wrong with no
// known mistake, lost to a failed program, or did not do it; item statistics (difficulty and
// discrimination); the share right per value of each variant parameter; and answers or programs
// shared without a reason. A pure function of the results records, so a merge of shards
// computes it exactly as one run over the same students does. Formats: docs/insight-format.md.
#pragma once

#include "checker/exercise/exercise_set.hpp"
#include "checker/outputs/gradebook.hpp"
#include "checker/insight/insight_code.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace blockcheck {

// The outcome of one part for one student.
namespace outcome {
inline constexpr const char* right = "right";               // correct to the precision of double
inline constexpr const char* inexact = "float";             // correct within the part's precision, float-sized error
inline constexpr const char* follows = "follows";           // wrong only through an earlier part's slip
inline constexpr const char* other_wrong = "other_wrong";   // a wrong answer no classic mistake explains
inline constexpr const char* failed = "failed";             // compile error, crash, timeout, output flood
inline constexpr const char* not_done = "not_done";         // no answer: no program, nothing printed, unreadable submission
inline constexpr const char* grader_fault = "grader_fault";  // the grader's failure (credited)
}  // namespace outcome

// Students with one outcome of a part; `outcome` is one of the above or "mistake:<catalogue id>".
struct OutcomeGroup {
    std::string outcome;
    std::vector<std::string> students;  // by id
};

struct PartInsight {
    std::string exercise, part;
    std::size_t students = 0;           // the class
    std::vector<OutcomeGroup> outcomes;  // right, float, mistakes by count (then id), other_wrong, failed, not_done, grader_fault; empty ones left out
    std::size_t wrong_answers = 0;      // answers printed and wrong: the mistakes and other_wrong
    bool unexplained = false;           // at least 3 wrong answers, most of them other_wrong
    double difficulty = 0;              // share of the class with the part accepted (right or float)
    std::optional<double> point_biserial, upper_lower;  // nullopt when every student scored the same
    bool flagged = false;               // discrimination below 0.1 (near zero or negative)

    std::size_t count(std::string_view outcome) const;
};

// The share of students with every part right, per value of one variant parameter.
struct VariantValue {
    std::string value;  // the input's text, or a range "[a, b)" of a numeric parameter with many values
    std::size_t students = 0, right = 0;
};
struct VariantInsight {
    std::string exercise, parameter;
    std::vector<VariantValue> values;
};

// A catalogue mistake's value beside a shared wrong answer (insight_trace.hpp).
struct NearMistake {
    std::string mistake;  // its key: the catalogue id, with its parameter ("pi_truncated/3.14")
    double distance = 0;  // |answer - the mistake's value| / |the mistake's value|, over every number
};

// Students whose wrong answers (the book's inputs, no known mistake) are the same printed text,
// and where the answer comes from, for an author to turn it into a catalogue entry.
struct SharedAnswer {
    std::string exercise, part, answer;
    std::vector<std::string> students;
    std::string departs_at;                   // the first step their numbers depart at; "" when unknown
    std::size_t departing = 0;                // how many of the students depart there
    std::optional<double> right_distance;     // the answer's distance from the right value, for scale
    std::vector<NearMistake> closest;         // on the book's inputs, at this part: nearest first
    std::vector<NearMistake> closest_at_step; // at departs_at, from the students' own values of its feeds
};

// Students whose programs have the same normal form (insight_code.hpp).
struct SharedCode {
    std::string exercise;
    std::size_t tokens = 0;
    bool all_right = false;  // every part of every one of these programs right: weaker evidence
    std::vector<std::string> students;
};

// A student's exercise whose parts printed the same text on the book's inputs and on the
// student's variant (right on the first, wrong on the second): observed, for a person to look at.
struct PrintedConstants {
    std::string student, exercise;
    std::vector<std::string> parts;
    std::optional<std::uint64_t> variant;
};

struct Insight {
    std::size_t students = 0;
    bool variants = false;
    std::vector<PartInsight> parts;  // in the set's order of exercises and parts
    std::vector<VariantInsight> variant_parameters;
    std::vector<SharedAnswer> shared_answers;
    std::vector<SharedCode> shared_code;
    std::vector<SharedCode> common_code;  // groups too large to be copying (more than a fifth of the programs): not named
    std::vector<PrintedConstants> printed_constants;  // by student, then exercise
};

// The student's record of exercise `id`; nullptr when there is none.
const ExerciseRecord* exercise_record(const StudentRecord& student, std::string_view id);

// The outcome of `part` of `exercise` for `student` (a record of it missing: not_done).
std::string part_outcome(const StudentRecord& student, const ExerciseRecord* exercise, const PartRecord* part);

Insight compute_insight(const ExerciseSet& set, const std::vector<StudentRecord>& students);

// insight.json and insight.csv into `out` (atomically).
void write_insight_files(const std::filesystem::path& out, const Insight& insight);

}  // namespace blockcheck
