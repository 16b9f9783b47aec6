// Grading one answer part: a student's line against the reference value.
#pragma once

#include "checker/common/i18n.hpp"
#include "checker/exercise/protocol.hpp"
#include "base/value.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockcheck {

// What became of one answer part (or of a whole exercise, for the last five).
enum class Verdict {
    correct,
    wrong,
    too_few_digits,
    missing,
    unparseable,
    compile_error,
    crashed,
    timed_out,
    output_limit,
    grader_fault
};

// The contract's name: "correct", "too_few_digits", ...
std::string_view verdict_name(Verdict verdict);

// What an answer part holds. An angle is a number of degrees compared modulo a full turn.
enum class AnswerKind { number, integer, vector, matrix, boolean, choice, angle };

// "number", "integer", "vector", "matrix", "boolean", "choice", "angle"; nullopt for anything else.
std::optional<AnswerKind> answer_kind_from_name(std::string_view name);
std::string_view answer_kind_name(AnswerKind kind);

// The precision an exercise declares for a numeric answer: decimal places, or significant
// digits (for small quantities such as inverse frequencies near 1e-4).
struct Precision {
    enum Unit { decimals, significant } unit = decimals;
    int places = 6;

    // "6 decimal places" / "6 位小数", "4 significant digits" / "4 位有效数字"
    Text describe() const;
};

// One answer an exercise asks for.
struct AnswerSpec {
    std::string name;
    AnswerKind kind = AnswerKind::number;
    double points = 1;
    Precision precision;  // what a number must give at least, and what it is held to
    Text explain;         // why a boolean or choice is what it is: shown once right, or with --reveal
    bool general = false; // a claim that holds whatever the inputs: the same value on every variant
};

// A classic mistake that explains a wrong or inexact value; never reveals the expected value.
struct Diagnosis {
    std::string id;  // "float_precision", "clockwise_rotation", ...
    Text message;
};

struct PartResult {
    std::string name;
    Verdict verdict = Verdict::missing;
    double score = 0, max_score = 0;
    Text message;
    std::optional<double> abs_error, rel_error;  // of the worst element, when computed
    int line = 0;                                // the answer's line; 0 when missing
    bool inexact = false;                        // correct within the declared precision, not to double's
    std::optional<Diagnosis> diagnosis;
    std::vector<Diagnosis> diagnoses;   // two mistakes named together (then `diagnosis` is empty)
    std::vector<Text> notes;            // a step that follows from the student's own earlier values, a
                                        // property the numbers break, a variant the program fails
    std::optional<double> follow_through;  // set when a step follows from the student's own earlier values:
                                           // the score it earns there (0 when made trivial by zeros upstream)
    std::string given;                  // the line's value as printed (for comparing runs)
};

struct AnswerCompareOptions {
    bool reveal = false;  // show the expected value and the explanation in wrong messages
    // credit a step computed correctly from the student's own wrong earlier values (its
    // follow_through score; reported always, given only when asked: `grade --follow-through`)
    bool follow_through = false;
    // the tutor: a wrong part's diagnosis (mistakes, steps, properties) and the confirmation of a
    // named mistake on other inputs; off, verdicts alone (bench --grading measures what it costs)
    bool tutor = true;
};

// Grades one part; `given` is nullptr when the output has no line for it.
PartResult grade_part(const AnswerSpec& spec, const ProgramLine* given, const Value& expected,
                      const AnswerCompareOptions& options);

// Why the reference value cannot grade this part (not of the declared kind, not finite, an
// integer part not whole); nullopt when it can.
std::optional<Text> reference_fault(const AnswerSpec& spec, const Value& expected);

// True when every number of `given` is within the part's declared tolerance of `candidate`
// (the same bound that grade_part applies), of the same shape; integers exactly.
bool within_tolerance(const AnswerSpec& spec, const Reading& given, const Value& candidate);

// A part whose line could not be read: verdict unparseable, message naming the line and text.
PartResult unparseable_part(const AnswerSpec& spec, const ProtocolIssue& issue);

// How many digits a number was written with (decimals, significant, whole) is decimal.hpp's
// DecimalAnatomy, found by the protocol's one scan of the text.

}  // namespace blockcheck
