// Student ids are folder and archive names: any bytes but '/' and NUL, any length the file
// system allows, not necessarily UTF-8. This is the one place they become file names, JSON
// and printed text.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace blockcheck {

// The longest stem student_file_stem returns, in bytes: with ".json" and the temporary prefix
// of an atomic write, far below the usual 255-byte file-name limit.
constexpr std::size_t max_student_stem_bytes = 100;

// The stem of a student's files (results/<stem>.json, gradescope/<stem>.json). An id of valid
// UTF-8 without control characters, '%' or '~', not starting with '.' and at most 100 bytes is
// its own stem ("ada" -> "ada"). Otherwise each byte that breaks the rule is written %XX, and a
// stem still longer than 100 bytes is cut to 80 bytes at a character boundary and ended by
// "~" and 16 hex digits of the whole id's hash. Distinct ids give distinct stems: uncut stems
// decode to their id, and only cut stems hold a '~'.
std::string student_file_stem(std::string_view id);

// The id as printed in progress lines, messages and summary.txt: control characters and bytes
// that are not UTF-8 written \xNN, so a newline in an id cannot break a line; cut at a character
// boundary to at most `max_bytes` (ending in "...") when given.
std::string printable_id(std::string_view id, std::size_t max_bytes = std::string_view::npos);

// Text of several lines that a student controls (messages, compiler notes, archive errors) as
// every human-readable output writes it: each line as printable_id writes it, the line feeds
// kept; so no control byte (a terminal escape, a carriage return, NUL, C1) and no invalid UTF-8
// is left. printable_text("a\x1b[2J\nb") == "a\\x1B[2J\nb".
std::string printable_text(std::string_view text);

// The id in a results file: "student" holds the id (invalid UTF-8 replaced by U+FFFD when
// written), and, for an id that is not valid UTF-8, "student_hex" holds its exact bytes.
void put_student_id(nlohmann::ordered_json& json, std::string_view id);
// Reads it back: the exact bytes from "student_hex" when present, else "student".
std::string student_id_from(const nlohmann::json& json);

}  // namespace blockcheck
