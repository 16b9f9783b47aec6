// The exercise-program protocol: what parses, and what every malformed line reports.
#include "checker/exercise/protocol.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace blockcheck;

namespace {

// The single answer of a one-line output (a copy: the output is often a temporary).
ProgramLine only_answer(const ProgramOutput& out) {
    REQUIRE(out.issues.empty());
    REQUIRE(out.answers.size() == 1);
    return out.answers.begin()->second;
}

// The single issue of an output (a copy).
ProtocolIssue only_issue(const ProgramOutput& out) {
    REQUIRE(out.issues.size() == 1);
    return out.issues.front();
}

// True when every byte sequence is well-formed UTF-8 without control bytes other than tab.
bool clean_utf8(const std::string& s) { return printable(s, s.size() + 3) == s; }

}  // namespace

TEST_CASE("a number keeps its text exactly as written") {
    ProgramLine a = only_answer(parse_program_output("dot = -8.06824e-1\n"));
    CHECK(a.name == "dot");
    CHECK(std::get<NumberText>(a.value).text == "-8.06824e-1");
    CHECK(a.line == 1);
    CHECK(a.text == "dot = -8.06824e-1");
}

TEST_CASE("a number is scanned once, when its line is read") {
    ProgramLine a = only_answer(parse_program_output("v = [-8.06824e-1, 1152.0, nan]\n"));
    const auto& items = std::get<std::vector<NumberText>>(a.value);
    REQUIRE(items[0].decimal);
    CHECK(items[0].decimal->decimals() == 6);
    CHECK(items[0].decimal->significant() == 6);
    CHECK(items[1].decimal->whole());
    CHECK(items[1].decimal->digits() == 5);
    CHECK_FALSE(items[2].finite());
    CHECK(read_number_text("-Infinity"));
    CHECK_FALSE(read_number_text("1.5x"));
}

TEST_CASE("a number with many digits keeps them all") {
    std::string digits = "0.848528137423857029281013234525828";
    ProgramLine a = only_answer(parse_program_output("r = " + digits));
    CHECK(std::get<NumberText>(a.value).text == digits);
}

TEST_CASE("a vector parses, spaces optional") {
    ProgramLine a = only_answer(parse_program_output("v = [1,-2.5 ,  3e-2]"));
    auto v = std::get<std::vector<NumberText>>(a.value);
    REQUIRE(v.size() == 3);
    CHECK(v[0].text == "1");
    CHECK(v[1].text == "-2.5");
    CHECK(v[2].text == "3e-2");
}

TEST_CASE("a matrix parses row by row") {
    ProgramLine a = only_answer(parse_program_output("m = [[1, 2], [3, 4.5]]"));
    auto m = std::get<std::vector<std::vector<NumberText>>>(a.value);
    REQUIRE(m.size() == 2);
    CHECK(m[0][1].text == "2");
    CHECK(m[1][1].text == "4.5");
}

TEST_CASE("booleans, undefined and choices parse") {
    ProgramOutput out = parse_program_output("yes = true\nno = false\ny = undefined\npick = B\n");
    CHECK(out.issues.empty());
    CHECK(std::get<bool>(out.answers.at("yes").value) == true);
    CHECK(std::get<bool>(out.answers.at("no").value) == false);
    CHECK(std::holds_alternative<Undefined>(out.answers.at("y").value));
    CHECK(std::get<Choice>(out.answers.at("pick").value).word == "B");
}

TEST_CASE("nan and inf in any case parse as number texts, so they can be graded wrong") {
    for (std::string text : {"nan", "-nan", "NaN", "inf", "-inf", "+inf", "INF", "-Infinity"}) {
        CAPTURE(text);
        ProgramLine a = only_answer(parse_program_output("x = " + text));
        CHECK(std::get<NumberText>(a.value).text == text);
    }
    CHECK(std::get<std::vector<NumberText>>(parse_reading("[1, nan, -inf]"))[1].text == "nan");
}

TEST_CASE("comments and blank lines are ignored but counted") {
    ProgramOutput out = parse_program_output("# a comment = 3\n\n   \n\t# indented comment\nx = 1\n");
    CHECK(only_answer(out).line == 5);
}

TEST_CASE("CRLF line ends are handled") {
    ProgramOutput out = parse_program_output("x = 1\r\nv = [1, 2]\r\n\r\nb = true\r\n");
    CHECK(out.issues.empty());
    CHECK(std::get<NumberText>(out.answers.at("x").value).text == "1");
    CHECK(out.answers.at("b").line == 4);
    CHECK(out.answers.at("x").text == "x = 1");
}

TEST_CASE("a UTF-8 byte order mark at the start is dropped") {
    CHECK(only_answer(parse_program_output("\xEF\xBB\xBFx = 1")).name == "x");
}

TEST_CASE("a line without '=' is an issue naming its line and quoting it") {
    ProtocolIssue issue = only_issue(parse_program_output("x = 1\nhello world\n"));
    CHECK(issue.line == 2);
    CHECK(issue.name.empty());
    CHECK(issue.text == "hello world");
    CHECK(issue.message.en.find("line 2: `hello world`: no '='") == 0);
    CHECK(issue.message.zh.find("第 2 行") == 0);
}

TEST_CASE("a bad number is an issue with the name read") {
    ProtocolIssue issue = only_issue(parse_program_output("\n\n\ndot = 0.5.1\n"));
    CHECK(issue.line == 4);
    CHECK(issue.name == "dot");
    CHECK(issue.message.en == "line 4: `dot = 0.5.1`: '0.5.1' is not a number");
    CHECK(!issue.message.zh.empty());
}

TEST_CASE("an unclosed bracket names the last element") {
    ProtocolIssue issue = only_issue(parse_program_output("v = [1, 2"));
    CHECK(issue.name == "v");
    CHECK(issue.message.en == "line 1: `v = [1, 2`: expected ']' after element 1");
}

TEST_CASE("a missing comma names the element and what follows it") {
    CHECK_THROWS_WITH_AS(parse_reading("[1 2]"), "expected ',' or ']' after element 0, found '2]'", ProtocolError);
}

TEST_CASE("an empty element is named") {
    CHECK_THROWS_WITH_AS(parse_reading("[1, , 2]"), "element 1 is empty", ProtocolError);
    CHECK_THROWS_WITH_AS(parse_reading("[1,"), "the value ends where element 1 should be (a ']' is missing)",
                         ProtocolError);
}

TEST_CASE("a bad number inside a matrix names its row and column") {
    CHECK_THROWS_WITH_AS(parse_reading("[[1, 2], [3, x]]"), "row 1, column 1: 'x' is not a number", ProtocolError);
}

TEST_CASE("text after the closing bracket is reported") {
    CHECK_THROWS_WITH_AS(parse_reading("[1, 2] 3"), "unexpected text after the closing ']': '3'", ProtocolError);
}

TEST_CASE("a ragged matrix names both row lengths") {
    ProtocolIssue issue = only_issue(parse_program_output("m = [[1, 2], [3, 4, 5]]"));
    CHECK(issue.name == "m");
    CHECK(issue.message.en ==
          "line 1: `m = [[1, 2], [3, 4, 5]]`: matrix rows have different lengths (row 1 has 3, row 0 has 2)");
}

TEST_CASE("an empty value is reported") {
    CHECK(only_issue(parse_program_output("x =")).message.en == "line 1: `x =`: the value is empty");
}

TEST_CASE("an empty name is an issue without a name") {
    ProtocolIssue issue = only_issue(parse_program_output("= 3"));
    CHECK(issue.name.empty());
    CHECK(issue.message.en == "line 1: `= 3`: no name before '='");
}

TEST_CASE("an invalid name is an issue without a name") {
    ProtocolIssue issue = only_issue(parse_program_output("2x = 3"));
    CHECK(issue.name.empty());
    CHECK(issue.message.en.find("'2x' is not a name") != std::string::npos);
}

TEST_CASE("a duplicate keeps the first answer and names both lines") {
    ProgramOutput out = parse_program_output("a = 1\nb = 2\nx = 0.5\nc = 3\n\n\nx = 0.6\n");
    CHECK(std::get<NumberText>(out.answers.at("x").value).text == "0.5");
    ProtocolIssue issue = only_issue(out);
    CHECK(issue.line == 7);
    CHECK(issue.name == "x");
    CHECK(issue.message.en == "line 7: `x = 0.6`: `x` given twice: lines 3 and 7");
}

TEST_CASE("a name whose first line did not parse takes its first line that did") {
    ProgramOutput out = parse_program_output("x = oops!\nx = 0.5\n");
    CHECK(std::get<NumberText>(out.answers.at("x").value).text == "0.5");
    REQUIRE(out.issues.size() == 2);
    CHECK(out.issues[1].message.en.find("given twice: lines 1 and 2") != std::string::npos);
}

TEST_CASE("binary garbage with NUL bytes is an issue with printable text") {
    std::string garbage("x = 1\n\x01\x00\xff\xfe = \x00\x00 junk\ny = 2\n", 27);
    ProgramOutput out = parse_program_output(garbage);
    CHECK(out.answers.size() == 2);
    ProtocolIssue issue = only_issue(out);
    CHECK(issue.line == 2);
    CHECK(issue.message.en.find("binary or non-UTF-8") != std::string::npos);
    CHECK(issue.text.find('\0') == std::string::npos);
    CHECK(issue.text.find("\\x00") != std::string::npos);
    CHECK(clean_utf8(issue.message.en));
}

TEST_CASE("a binary line keeps the name it starts with") {
    CHECK(only_issue(parse_program_output(std::string("dot = 0.5\x00", 10))).name == "dot");
}

TEST_CASE("a 1 MB line without '=' is one issue with its text cut to 200 bytes") {
    ProgramOutput out = parse_program_output("x = 1\n" + std::string(1 << 20, 'a') + "\n");
    ProtocolIssue issue = only_issue(out);
    CHECK(issue.line == 2);
    CHECK(issue.text.size() <= 200);
    CHECK(issue.text.ends_with("..."));
    CHECK(issue.message.en.size() < 400);
}

TEST_CASE("a 1 MB malformed number quotes only its start") {
    ProtocolIssue issue = only_issue(parse_program_output("x = 1." + std::string(1 << 20, '5') + ".5"));
    CHECK(issue.name == "x");
    CHECK(issue.message.en.size() < 400);
}

TEST_CASE("a 1 MB vector parses") {
    std::string line = "v = [0.5";
    while (line.size() < (1 << 20)) line += ", 0.5";
    ProgramLine a = only_answer(parse_program_output(line + "]"));
    CHECK(std::get<std::vector<NumberText>>(a.value).size() > 200000);
    CHECK(a.text.size() <= 200);
}

TEST_CASE("random bytes never crash the parser and give printable messages") {
    unsigned state = 12345;
    std::string bytes;
    for (int i = 0; i < 200000; ++i) {
        state = state * 1103515245u + 12345u;
        const char alphabet[] = "x=[],.0123456789e-+ \n\r#\xff\xc3\xa9\x00tnaif";
        bytes += alphabet[(state >> 16) % (sizeof alphabet - 1)];
    }
    ProgramOutput out;
    CHECK_NOTHROW(out = parse_program_output(bytes));
    CHECK(!out.issues.empty());
    for (const ProtocolIssue& issue : out.issues) {
        CHECK(clean_utf8(issue.message.en));
        CHECK(clean_utf8(issue.message.zh));
    }
}

TEST_CASE("a flood of bad lines lists a few and counts the rest") {
    std::string text;
    for (int i = 0; i < 1000; ++i) text += "debug output\n";
    ProgramOutput out = parse_program_output(text);
    REQUIRE(out.issues.size() == 21);
    CHECK(out.issues.back().message.en == "line 21: 980 more lines with problems are not listed");
}

TEST_CASE("printable escapes control bytes and cuts at a character boundary") {
    CHECK(printable(std::string("a\0b", 3)) == "a\\x00b");
    CHECK(printable("\xff") == "\\xFF");
    CHECK(printable("中文中文", 10) == "中文...");  // 3 bytes a character: 6 + "..." fits in 10
    CHECK(printable("short", 10) == "short");
}

TEST_CASE("to_value reads decimals exactly") {
    Value v = to_value(parse_reading("0.1"));
    CHECK(std::get<Real>(v) == parse_real<Real>("0.1"));
    Value m = to_value(parse_reading("[[1, 2], [3, 4]]"));
    CHECK(std::get<Matrix<Real>>(m)(1, 0) == 3);
}

TEST_CASE("to_value refuses nan, inf and numbers beyond range") {
    CHECK_THROWS_WITH_AS(to_value(parse_reading("nan")), "'nan' is not a finite number", ProtocolError);
    CHECK_THROWS_AS(to_value(parse_reading("[1, -inf]")), ProtocolError);
    CHECK_THROWS_WITH_AS(to_value(parse_reading("1e999999999999")), "'1e999999999999' is beyond the range of numbers",
                         ProtocolError);
}

TEST_CASE("format_value writes protocol text") {
    CHECK(format_value(Value(parse_real<Real>("0.848528137423857")), 6) == "0.848528");
    CHECK(format_value(to_value(parse_reading("[1, 2.5]")), 6) == "[1, 2.5]");
    CHECK(format_value(to_value(parse_reading("[[1, 2], [3, 4]]")), 6) == "[[1, 2], [3, 4]]");
    CHECK(format_value(Value(true), 6) == "true");
    CHECK(format_value(Value(Undefined{}), 6) == "undefined");
    CHECK(format_value(Value(Choice{"B"}), 6) == "B");
}

TEST_CASE("format_value output parses back to the same value") {
    Value v = to_value(parse_reading("[[0.125, -3e-5], [1e20, 7]]"));
    CHECK(std::get<Matrix<Real>>(to_value(parse_reading(format_value(v, 20)))).values ==
          std::get<Matrix<Real>>(v).values);
}

TEST_CASE("parse_inputs reads every line into values") {
    Values values = parse_inputs("# book inputs\nrow = [3, 4]\neps = 0\nflag = true\n", "ex.inputs");
    CHECK(std::get<Vector<Real>>(values.at("row")).size() == 2);
    CHECK(std::get<Real>(values.at("eps")) == 0);
    CHECK(std::get<bool>(values.at("flag")));
}

TEST_CASE("parse_inputs names the source and line of a bad line") {
    CHECK_THROWS_WITH_AS(parse_inputs("a = 1\n\nb = [1, 2\n", "data/ex.inputs"),
                         "data/ex.inputs:3: `b = [1, 2`: expected ']' after element 1", ProtocolError);
}

TEST_CASE("parse_inputs refuses duplicates and non-finite numbers, naming the line") {
    CHECK_THROWS_WITH_AS(parse_inputs("a = 1\na = 2\n", "in"), "in:2: `a = 2`: `a` given twice: lines 1 and 2",
                         ProtocolError);
    CHECK_THROWS_WITH_AS(parse_inputs("a = nan\n", "in"), "in:1: `a = nan`: 'nan' is not a finite number",
                         ProtocolError);
}

TEST_CASE("a ProtocolError carries the Chinese message too") {
    try {
        parse_inputs("x", "in");
        FAIL("expected a ProtocolError");
    } catch (const ProtocolError& e) {
        CHECK(e.message().zh.find("in:1:") == 0);
        CHECK(e.message().zh.find("没有 '='") != std::string::npos);
    }
}
