#include "checker/outputs/lms.hpp"

#include "checker/outputs/student_id.hpp"

#include "checker/common/csv.hpp"
#include "checker/common/files.hpp"
#include "checker/common/json_exact.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace blockcheck {

namespace {

struct CsvRow {
    std::vector<std::string> cells;
    std::size_t line = 0;  // where the row starts
};

[[noreturn]] void roster_error(const std::string& source, std::size_t line, const std::string& what) {
    throw InputFileError(fmt::format("{}:{}: {}", source, line, what));
}

// RFC 4180, strictly: a quote only opens a cell or closes it (doubled inside), CRLF or LF ends a
// row, blank lines are skipped.
std::vector<CsvRow> strict_csv_rows(std::string_view text, const std::string& source) {
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    std::vector<CsvRow> rows;
    CsvRow row{{}, 1};
    std::string cell;
    std::size_t line = 1, quote_line = 0;
    enum { start, plain, quoted, closed } state = start;
    auto end_cell = [&] { row.cells.push_back(std::move(cell)); cell.clear(); state = start; };
    auto end_row = [&] {
        const bool blank = row.cells.empty() && cell.empty() && state == start;
        if (!blank) end_cell(), rows.push_back(std::move(row));
        row = CsvRow{{}, line + 1};
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (state == quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') cell += '"', ++i;
            else if (c == '"') state = closed;
            else cell += c, line += c == '\n';
            continue;
        }
        if (c == ',') { end_cell(); continue; }
        if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
        if (c == '\n' || c == '\r') { end_row(); ++line; continue; }
        if (state == closed) roster_error(source, line, "text after a closing quote (write the whole cell in quotes)");
        if (c == '"') {
            if (state == plain) roster_error(source, line, "a quote inside an unquoted cell (quote the cell and double the quote)");
            state = quoted, quote_line = line;
            continue;
        }
        cell += c, state = plain;
    }
    if (state == quoted) roster_error(source, quote_line, "a quoted cell is never closed");
    end_row();
    return rows;
}

using Field = std::string RosterEntry::*;
const std::map<std::string, Field, std::less<>>& roster_fields() {
    static const std::map<std::string, Field, std::less<>> fields = {
        {"submission", &RosterEntry::submission}, {"name", &RosterEntry::name},
        {"section", &RosterEntry::section},       {"canvas_id", &RosterEntry::canvas_id},
        {"sis_user_id", &RosterEntry::sis_user_id}, {"sis_login_id", &RosterEntry::sis_login_id},
        {"email", &RosterEntry::email},           {"id_number", &RosterEntry::id_number},
        {"username", &RosterEntry::username}};
    return fields;
}

std::string known_columns() {
    std::string names;
    for (const auto& [name, field] : roster_fields()) names += (names.empty() ? "" : ", ") + name;
    return names;
}

std::vector<Field> header_fields(const CsvRow& header, const std::string& source) {
    std::vector<Field> fields;
    std::set<std::string> seen;
    for (const std::string& column : header.cells) {
        const auto it = roster_fields().find(column);
        if (it == roster_fields().end())
            roster_error(source, header.line, fmt::format("unknown column '{}' (known: {})", column, known_columns()));
        if (!seen.insert(column).second) roster_error(source, header.line, fmt::format("column '{}' named twice", column));
        fields.push_back(it->second);
    }
    if (!seen.contains("submission")) roster_error(source, header.line, "no 'submission' column (the submission ids)");
    return fields;
}

// The LMS's identifier columns, in the order they are tried.
std::vector<std::pair<const char*, Field>> identifiers(Lms lms) {
    switch (lms) {
        case Lms::canvas:
            return {{"canvas_id", &RosterEntry::canvas_id}, {"sis_user_id", &RosterEntry::sis_user_id},
                    {"sis_login_id", &RosterEntry::sis_login_id}};
        case Lms::moodle: return {{"email", &RosterEntry::email}, {"id_number", &RosterEntry::id_number}};
        case Lms::blackboard: return {{"username", &RosterEntry::username}};
    }
    return {};
}

// Moodle matches on one column: email when the roster has it, else id_number.
bool moodle_by_email(const Roster* roster) {
    return roster && std::find(roster->columns.begin(), roster->columns.end(), "email") != roster->columns.end();
}

std::string header_row(Lms lms, const std::string& assignment, double points, const Roster* roster) {
    switch (lms) {
        case Lms::canvas:
            return "Student,ID,SIS User ID,SIS Login ID,Section," + csv_cell(assignment) + "\r\n" +
                   "    Points Possible,,,,," + score_text(points) + "\r\n";
        case Lms::moodle:
            return std::string(moodle_by_email(roster) ? "Email address" : "ID number") + "," + csv_cell(assignment) + "\r\n";
        case Lms::blackboard:
            return "Username," + csv_cell(fmt::format("{} [Total Pts: {} Score]", assignment, score_text(points))) + "\r\n";
    }
    return {};
}

// A text cell of a student's row: no control byte (printable_id), no formula (csv_cell).
std::string text_cell(std::string_view text) { return csv_cell(printable_id(text)); }

std::string student_row(Lms lms, const RosterEntry& who, double score, const Roster* roster) {
    const std::string grade = score_text(score);
    switch (lms) {
        case Lms::canvas:
            return fmt::format("{},{},{},{},{},{}\r\n", text_cell(who.name.empty() ? who.submission : who.name),
                               text_cell(who.canvas_id), text_cell(who.sis_user_id), text_cell(who.sis_login_id),
                               text_cell(who.section), grade);
        case Lms::moodle:
            return fmt::format("{},{}\r\n", text_cell(moodle_by_email(roster) ? who.email : who.id_number), grade);
        case Lms::blackboard: return fmt::format("{},{}\r\n", text_cell(who.username), grade);
    }
    return {};
}

// Without a roster the submission id is the student's identifier everywhere.
RosterEntry self_entry(const std::string& submission) {
    RosterEntry e;
    e.submission = e.sis_login_id = e.id_number = e.username = submission;
    return e;
}

}  // namespace

Lms parse_lms(std::string_view name) {
    if (name == "canvas") return Lms::canvas;
    if (name == "moodle") return Lms::moodle;
    if (name == "blackboard") return Lms::blackboard;
    throw InputFileError(fmt::format("--lms: '{}' is not one of canvas, moodle, blackboard", name));
}

std::string_view lms_name(Lms lms) {
    switch (lms) {
        case Lms::canvas: return "canvas";
        case Lms::moodle: return "moodle";
        case Lms::blackboard: return "blackboard";
    }
    return "";
}

Roster parse_roster(std::string_view text, const std::string& source) {
    const std::vector<CsvRow> rows = strict_csv_rows(text, source);
    if (rows.empty()) roster_error(source, 1, "the roster is empty (a header row is expected: submission,email,...)");
    const std::vector<Field> fields = header_fields(rows.front(), source);
    Roster roster{source, rows.front().cells, {}};
    std::map<std::string, std::size_t> first_line;
    for (std::size_t r = 1; r < rows.size(); ++r) {
        const CsvRow& row = rows[r];
        if (row.cells.size() != fields.size())
            roster_error(source, row.line, fmt::format("{} cells, but the header names {} columns", row.cells.size(), fields.size()));
        RosterEntry entry;
        entry.line = row.line;
        for (std::size_t c = 0; c < fields.size(); ++c) entry.*fields[c] = row.cells[c];
        if (entry.submission.empty()) roster_error(source, row.line, "the submission id is empty");
        if (auto [it, fresh] = first_line.emplace(entry.submission, row.line); !fresh)
            roster_error(source, row.line, fmt::format("submission '{}' is already on line {}", entry.submission, it->second));
        roster.entries.push_back(std::move(entry));
    }
    return roster;
}

Roster read_roster(const std::filesystem::path& file) { return parse_roster(read_user_file(file, max_json_file_bytes), file.string()); }

void check_roster_for(const Roster& roster, Lms lms) {
    const auto ids = identifiers(lms);
    std::vector<std::pair<const char*, Field>> present;
    for (const auto& id : ids)
        if (std::find(roster.columns.begin(), roster.columns.end(), id.first) != roster.columns.end()) present.push_back(id);
    if (present.empty()) {
        std::string names;
        for (const auto& id : ids) names += std::string(names.empty() ? "" : " or ") + id.first;
        roster_error(roster.source, 1, fmt::format("{} matches students by {}: add that column", lms_name(lms), names));
    }
    // Moodle uses one column (the first present); Canvas any one of its three.
    if (lms == Lms::moodle) present.resize(1);
    for (const RosterEntry& e : roster.entries)
        if (std::none_of(present.begin(), present.end(), [&](const auto& id) { return !(e.*id.second).empty(); }))
            roster_error(roster.source, e.line,
                         fmt::format("submission '{}' has no {} for {}", e.submission, present.front().first, lms_name(lms)));
}

LmsFile lms_file(Lms lms, const std::vector<StudentRecord>& students, double points, const std::string& assignment,
                 const Roster* roster) {
    LmsFile file;
    file.csv = header_row(lms, assignment, points, roster);
    std::map<std::string, const StudentRecord*> by_id;
    for (const StudentRecord& s : students) by_id.emplace(s.student, &s);
    if (!roster) {
        for (const auto& [id, s] : by_id) file.csv += student_row(lms, self_entry(id), s->score, nullptr);
        return file;
    }
    std::set<std::string> listed;
    for (const RosterEntry& e : roster->entries) {
        listed.insert(e.submission);
        const auto it = by_id.find(e.submission);
        if (it == by_id.end()) file.roster_without_result.push_back(e.submission);
        else file.csv += student_row(lms, e, it->second->score, roster);
    }
    for (const auto& [id, s] : by_id)
        if (!listed.contains(id)) file.unmatched_submissions.push_back(id);
    return file;
}

}  // namespace blockcheck
