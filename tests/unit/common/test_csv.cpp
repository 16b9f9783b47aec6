#include "checker/common/csv.hpp"

#include <doctest/doctest.h>

using namespace blockcheck;

TEST_CASE("csv: cells are quoted per RFC 4180 and read back") {
    CHECK(csv_cell("ada") == "ada");
    CHECK(csv_cell("a,b") == "\"a,b\"");
    CHECK(csv_cell("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(csv_cell("two\nlines") == "\"two\nlines\"");
    CHECK(csv_cell("") == "");
    const auto rows = parse_csv("a,\"b,c\",\"d\"\"e\"\r\n\"x\r\ny\",,z\r\n");
    REQUIRE(rows.size() == 2);
    CHECK(rows[0] == std::vector<std::string>{"a", "b,c", "d\"e"});
    CHECK(rows[1] == std::vector<std::string>{"x\r\ny", "", "z"});
}

TEST_CASE("csv: a student's cell that a spreadsheet would read as a formula gets a leading apostrophe") {
    CHECK(csv_cell("=HYPERLINK(\"http://x\")") == "\"'=HYPERLINK(\"\"http://x\"\")\"");
    CHECK(csv_cell("+1") == "'+1");
    CHECK(csv_cell("-2+3") == "'-2+3");
    CHECK(csv_cell("@SUM(A1)") == "'@SUM(A1)");
    CHECK(csv_cell("\t=1") == "'\t=1");
    CHECK(csv_cell("\r=1") == "\"'\r=1\"");
    CHECK(csv_cell("a=1") == "a=1");
    CHECK(csv_cell("'quoted") == "'quoted");
}

TEST_CASE("csv: the grader's own numbers are written as they are") {
    CHECK(csv_cell("-1.5", CsvOrigin::grader) == "-1.5");
    CHECK(csv_cell("a,b", CsvOrigin::grader) == "\"a,b\"");
}

TEST_CASE("csv: no student cell read back starts with = + - @ tab or CR") {
    const std::vector<std::string> hostile = {"=cmd|' /C calc'!A0", "+x", "-x", "@x", "\tx", "\rx", "=a,b", "=\"q\"", "x\n=y"};
    const auto rows = parse_csv(csv_row(hostile));
    REQUIRE(rows.size() == 1);
    REQUIRE(rows[0].size() == hostile.size());
    for (std::size_t i = 0; i < hostile.size(); ++i) {
        CAPTURE(hostile[i]);
        CHECK(rows[0][i].find_first_of("=+-@\t\r") != 0);
        CHECK(rows[0][i] == (i < 8 ? "'" + hostile[i] : hostile[i]));
    }
}
