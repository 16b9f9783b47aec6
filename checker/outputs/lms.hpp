// Gradebook import files for the LMSs courses use (Canvas, Moodle, Blackboard), and the roster
// that maps submission ids to each LMS's user identifiers. Formats: docs/platforms.md.
#pragma once

#include "checker/outputs/gradebook.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace blockcheck {

enum class Lms { canvas, moodle, blackboard };

// "canvas" | "moodle" | "blackboard"; anything else is an InputFileError listing the three.
Lms parse_lms(std::string_view name);
std::string_view lms_name(Lms lms);

// One roster row: a submission id and the student's identifiers in the LMSs ("" when absent).
struct RosterEntry {
    std::string submission;  // the submission's folder or archive name without extension
    std::string name, section, canvas_id, sis_user_id, sis_login_id, email, id_number, username;
    std::size_t line = 0;    // in the roster file
};

struct Roster {
    std::string source;                // the file, for messages
    std::vector<std::string> columns;  // as the header names them
    std::vector<RosterEntry> entries;  // in file order
};

// A roster CSV (RFC 4180, UTF-8, an optional byte-order mark): a header naming columns from
// submission (required), name, section, canvas_id, sis_user_id, sis_login_id, email, id_number,
// username; then one row a student. Unknown or repeated columns, a row with another number of
// cells, an unterminated or stray quote, an empty or repeated submission id are InputFileErrors
// naming `source` and the line.
Roster parse_roster(std::string_view text, const std::string& source);
Roster read_roster(const std::filesystem::path& file);

// The roster holds the identifier `lms` matches students by (Canvas: canvas_id, sis_user_id or
// sis_login_id; Moodle: email or id_number; Blackboard: username) on every row; else an
// InputFileError naming the file and line.
void check_roster_for(const Roster& roster, Lms lms);

struct LmsFile {
    std::string csv;                                  // the import file (CRLF line ends)
    std::vector<std::string> unmatched_submissions;   // graded, but not in the roster (not written)
    std::vector<std::string> roster_without_result;   // in the roster, but never graded (not written)
};

// The import file of `lms` for these students' totals out of `points`, in a column called
// `assignment`. With a roster: rows in roster order for the students graded; without one, the
// submission id stands for every identifier. Every text cell goes through printable_id (no
// control byte) and csv_cell (quoted, and never read as a spreadsheet formula).
LmsFile lms_file(Lms lms, const std::vector<StudentRecord>& students, double points, const std::string& assignment,
                 const Roster* roster);

}  // namespace blockcheck
