// The exercise-program protocol: lines `name = value`, read from a student's output or an
// input file. Numbers keep the text exactly as written, so grading can count its digits.
#pragma once

#include "checker/common/i18n.hpp"
#include "base/value.hpp"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace blockcheck {

// A number exactly as written: a decimal, or nan/inf in any case with an optional sign. The
// protocol scans its text once, when it reads the line (read_number_text); `decimal` keeps what
// that scan found, so grading converts it and counts its digits without reading the text again.
struct NumberText {
    std::string text;
    std::optional<DecimalAnatomy> decimal;  // nullopt for nan, inf and infinity

    bool finite() const { return decimal.has_value(); }
};

// One value as read, before conversion: number, vector, matrix, boolean, undefined or a word.
using Reading = std::variant<NumberText, std::vector<NumberText>, std::vector<std::vector<NumberText>>, bool,
                             Undefined, Choice>;

// One line `name = value` that parsed.
struct ProgramLine {
    std::string name;
    Reading value;
    int line = 0;      // 1-based line number
    std::string text;  // the raw line: trimmed, made printable, at most 200 bytes
};

// A line that could not be used as an answer.
struct ProtocolIssue {
    int line = 0;
    std::string name;  // empty when no name could be read
    std::string text;  // the raw line: trimmed, made printable, at most 200 bytes
    Text message;      // names the line and quotes it
};

// Everything a program printed, sorted into answers and issues.
struct ProgramOutput {
    std::map<std::string, ProgramLine> answers;  // first occurrence of each name that parsed
    std::vector<ProtocolIssue> issues;           // unparseable lines, duplicates, lines without '=', binary
};

// A value that does not follow the protocol. what() is English; zh holds the Chinese when known.
struct ProtocolError : std::runtime_error {
    using std::runtime_error::runtime_error;
    explicit ProtocolError(const Text& message) : std::runtime_error(message.en), zh(message.zh) {}
    std::string zh;
    Text message() const { return {what(), zh}; }
};

// Sorts a program's whole output. Never throws on any bytes.
ProgramOutput parse_program_output(std::string_view text);

// Reads the text right of '='; throws ProtocolError naming what is wrong and where.
Reading parse_reading(std::string_view value_text);

// True for nan, inf and infinity texts (any case, optional sign).
bool is_non_finite_text(std::string_view text);

// The token as a number: a decimal or a non-finite word; nullopt for anything else.
std::optional<NumberText> read_number_text(std::string_view token);

// The exact value of a decimal at the reference precision, from the text its scan accepted;
// throws ProtocolError for nan, inf and decimals beyond the representable range.
Real number_value(const NumberText& number);

// A reading as a value; throws ProtocolError for non-finite numbers.
Value to_value(const Reading& reading);

// The protocol text of a value, numbers at `significant_digits` significant digits.
std::string format_value(const Value& value, int significant_digits);

// An inputs file: every line must parse. Throws ProtocolError "<source>:<line>: ...".
Values parse_inputs(std::string_view text, const std::string& source);

// A quotable form of arbitrary bytes: valid UTF-8, control bytes (C0 but tab, DEL, C1) escaped as \xNN,
// cut at a character boundary to at most `max_bytes` (ending in "..." when cut).
std::string printable(std::string_view bytes, std::size_t max_bytes = 200);

}  // namespace blockcheck
