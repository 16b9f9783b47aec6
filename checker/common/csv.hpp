// CSV cells written safely: RFC 4180 quoting, and no cell a student controls can be read by a
// spreadsheet as a formula (OWASP "CSV injection": such a cell gets a leading apostrophe).
// Every CSV the project writes goes through csv_cell.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace blockcheck {

// Who wrote a cell's text: a student (ids, names, answers, messages: anything from a
// submission) or the grader itself (scores and counts it computed, column names it chose).
enum class CsvOrigin { student, grader };

// One CSV cell. A student's text that starts with = + - @, a tab or a carriage return gets a
// leading ' (so "=HYPERLINK(...)" is shown as text, never evaluated); then the cell is quoted
// when it holds a comma, quote, CR or LF, with quotes doubled (RFC 4180).
//   csv_cell("=1+2") == "'=1+2"     csv_cell("a,b") == "\"a,b\""     csv_cell("-1", CsvOrigin::grader) == "-1"
std::string csv_cell(std::string_view text, CsvOrigin origin = CsvOrigin::student);

// One CSV line of student-controlled cells joined by commas, ended by CRLF.
std::string csv_row(const std::vector<std::string>& cells, CsvOrigin origin = CsvOrigin::student);

// Reads CSV text back into rows of cells (RFC 4180; CRLF or LF line ends). The apostrophe
// csv_cell adds stays part of the cell: that is what a spreadsheet shows.
std::vector<std::vector<std::string>> parse_csv(std::string_view text);

}  // namespace blockcheck
