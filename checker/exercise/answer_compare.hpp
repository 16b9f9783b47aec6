// Grading one answer part: a student's line against the reference value.
#pragma once

#include "checker/common/i18n.hpp"
#include "checker/exercise/protocol.hpp"
#include "solutions/exercise.hpp"

#include <optional>
#include <string>
#include <string_view>

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

// What an answer part holds.
enum class AnswerKind { number, integer, vector, matrix, boolean, choice };

// "number", "integer", "vector", "matrix", "boolean", "choice"; nullopt for anything else.
std::optional<AnswerKind> answer_kind_from_name(std::string_view name);
std::string_view answer_kind_name(AnswerKind kind);

// One answer an exercise asks for.
struct AnswerSpec {
    std::string name;
    AnswerKind kind = AnswerKind::number;
    double points = 1;
    int digits = 6;  // decimal places a number must give at least
    Text explain;    // shown with a wrong boolean or choice
};

struct PartResult {
    std::string name;
    Verdict verdict = Verdict::missing;
    double score = 0, max_score = 0;
    Text message;
    std::optional<double> abs_error, rel_error;  // of the worst element, when computed
    int line = 0;                                // the answer's line; 0 when missing
};

struct AnswerCompareOptions {
    bool reveal = false;  // show the expected value in wrong messages
};

// Grades one part; `given` is nullptr when the output has no line for it.
PartResult grade_part(const AnswerSpec& spec, const ProgramLine* given, const Value& expected,
                      const AnswerCompareOptions& options);

// A part whose line could not be read: verdict unparseable, message naming the line and text.
PartResult unparseable_part(const AnswerSpec& spec, const ProtocolIssue& issue);

// Digits after the decimal point minus the exponent: "8.48528e-1" -> 6, "1152" -> 0, "1.5e3" -> -2.
// Exponents are clamped so that absurd ones cannot overflow.
int decimals(std::string_view text);

// Significant digits of a decimal, leading zeros not counted: "0.00120" -> 3.
int significant(std::string_view text);

// True when a decimal's text is exactly a whole number: "1152.0" and "1.152e3" are, "1152.5" is not.
bool is_whole_text(std::string_view text);

}  // namespace blockcheck
