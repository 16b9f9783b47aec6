// The LMS import files and the roster: each LMS's header and rows, roster order and the
// unmatched ids on both sides, formula injection defused, control bytes escaped, and a strict roster reader whose
// errors name the file and line.
#include "checker/outputs/lms.hpp"
#include "checker/outputs/gradescope.hpp"
#include "checker/common/json_exact.hpp"

#include <doctest/doctest.h>

using namespace blockcheck;

namespace {

StudentRecord scored_student(const std::string& id, double score) {
    StudentRecord s;
    s.student = id;
    s.score = score;
    s.max_score = 49;
    return s;
}

const std::vector<StudentRecord> students = {scored_student("ada", 49), scored_student("bob", 12.5), scored_student("=cmd|' /C calc'!A0", 3)};

const char* roster_text =
    "submission,name,section,canvas_id,sis_user_id,sis_login_id,email,id_number,username\r\n"
    "bob,\"Bob, Jr.\",A,102,S002,bob,bob@uni.edu,0002,bob1\r\n"
    "ada,@Ada,B,101,S001,ada,ada@uni.edu,0001,ada1\r\n"
    "cy,Cy,A,103,S003,cy,cy@uni.edu,0003,cy1\r\n";

}  // namespace

TEST_CASE("Canvas's import file: its five columns, the assignment with a Points Possible row, roster order") {
    const Roster roster = parse_roster(roster_text, "roster.csv");
    const LmsFile file = lms_file(Lms::canvas, students, 49, "RoPE homework", &roster);
    CHECK(file.csv ==
          "Student,ID,SIS User ID,SIS Login ID,Section,RoPE homework\r\n"
          "    Points Possible,,,,,49\r\n"
          "\"Bob, Jr.\",102,S002,bob,A,12.5\r\n"
          "'@Ada,101,S001,ada,B,49\r\n");
    CHECK(file.unmatched_submissions == std::vector<std::string>{"=cmd|' /C calc'!A0"});
    CHECK(file.roster_without_result == std::vector<std::string>{"cy"});
}

TEST_CASE("Moodle's import file matches by email when the roster has it, else by id number") {
    const Roster roster = parse_roster(roster_text, "roster.csv");
    CHECK(lms_file(Lms::moodle, students, 49, "blockcheck", &roster).csv ==
          "Email address,blockcheck\r\nbob@uni.edu,12.5\r\nada@uni.edu,49\r\n");
    const Roster numbers = parse_roster("submission,id_number\nada,0001\n", "r.csv");
    CHECK(lms_file(Lms::moodle, students, 49, "blockcheck", &numbers).csv == "ID number,blockcheck\r\n0001,49\r\n");
}

TEST_CASE("Blackboard's import file: Username and a column header carrying the points") {
    const Roster roster = parse_roster(roster_text, "roster.csv");
    CHECK(lms_file(Lms::blackboard, students, 49, "blockcheck", &roster).csv ==
          "Username,blockcheck [Total Pts: 49 Score]\r\nbob1,12.5\r\nada1,49\r\n");
}

TEST_CASE("without a roster the submission id is the identifier, and a formula for an id is defused") {
    const LmsFile file = lms_file(Lms::blackboard, students, 49, "=HYPERLINK(\"x\")", nullptr);
    CHECK(file.csv ==
          "Username,\"'=HYPERLINK(\"\"x\"\") [Total Pts: 49 Score]\"\r\n"
          "'=cmd|' /C calc'!A0,3\r\nada,49\r\nbob,12.5\r\n");
    CHECK(file.unmatched_submissions.empty());
    for (const char* lead : {"=", "+", "-", "@"}) {
        const std::string csv = lms_file(Lms::canvas, {scored_student(std::string(lead) + "1+1", 1)}, 49, "a", nullptr).csv;
        CHECK(csv.find("\r\n'" + std::string(lead) + "1+1,,,'" + lead + "1+1,,1\r\n") != std::string::npos);
    }
}

TEST_CASE("an id's control bytes reach no LMS file raw: terminal escapes and C1 shown as \\xNN") {
    const std::string id = "=x\x1b[2J\x07\r\xc2\x9b" "1m";
    for (Lms lms : {Lms::canvas, Lms::moodle, Lms::blackboard}) {
        const std::string csv = lms_file(lms, {scored_student(id, 1)}, 49, "a", nullptr).csv;
        CAPTURE(lms_name(lms));
        CHECK(csv.find("'=x\\x1B[2J\\x07\\x0D\\xC2\\x9B1m") != std::string::npos);
        CHECK(csv.find('\x1b') == std::string::npos);
        CHECK(csv.find("\xc2\x9b") == std::string::npos);
    }
}

TEST_CASE("the roster reader is strict and names the file and line") {
    CHECK(parse_roster("\xEF\xBB\xBFsubmission,email\n\nada,a@x\n", "r.csv").entries.front().email == "a@x");
    CHECK(parse_roster("submission,name\nada,\"two\nlines\"\nbob,b\n", "r.csv").entries.back().line == 4);
    CHECK_THROWS_WITH(parse_roster("", "r.csv"), doctest::Contains("r.csv:1: the roster is empty"));
    CHECK_THROWS_WITH(parse_roster("submission,mail\n", "r.csv"), doctest::Contains("r.csv:1: unknown column 'mail'"));
    CHECK_THROWS_WITH(parse_roster("email,name\n", "r.csv"), doctest::Contains("r.csv:1: no 'submission' column"));
    CHECK_THROWS_WITH(parse_roster("submission,email,email\n", "r.csv"), doctest::Contains("column 'email' named twice"));
    CHECK_THROWS_WITH(parse_roster("submission,email\nada,a@x\nbob\n", "r.csv"),
                      doctest::Contains("r.csv:3: 1 cells, but the header names 2 columns"));
    CHECK_THROWS_WITH(parse_roster("submission,email\nada,\"a@x\n", "r.csv"), doctest::Contains("r.csv:2: a quoted cell is never closed"));
    CHECK_THROWS_WITH(parse_roster("submission,email\nada,a\"b\n", "r.csv"), doctest::Contains("r.csv:2: a quote inside an unquoted cell"));
    CHECK_THROWS_WITH(parse_roster("submission,email\nada,\"a\"b\n", "r.csv"), doctest::Contains("r.csv:2: text after a closing quote"));
    CHECK_THROWS_WITH(parse_roster("submission,email\n,a@x\n", "r.csv"), doctest::Contains("r.csv:2: the submission id is empty"));
    CHECK_THROWS_WITH(parse_roster("submission,email\nada,a\nbob,b\nada,c\n", "r.csv"),
                      doctest::Contains("r.csv:4: submission 'ada' is already on line 2"));
    CHECK(parse_roster("submission\r\nada\r\n\r\nbob", "r.csv").entries.size() == 2);  // CRLF, a blank line, no final newline
}

TEST_CASE("a roster must hold the identifier its LMS matches by, on every row") {
    const Roster emails = parse_roster("submission,email\nada,a@x\nbob,\n", "r.csv");
    CHECK_THROWS_WITH(check_roster_for(emails, Lms::canvas), doctest::Contains("r.csv:1: canvas matches students by canvas_id or sis_user_id or sis_login_id"));
    CHECK_THROWS_WITH(check_roster_for(emails, Lms::moodle), doctest::Contains("r.csv:3: submission 'bob' has no email for moodle"));
    const Roster canvas = parse_roster("submission,canvas_id,sis_login_id\nada,1,\nbob,,bob\n", "r.csv");
    CHECK_NOTHROW(check_roster_for(canvas, Lms::canvas));
    CHECK_THROWS_WITH(parse_lms("d2l"), doctest::Contains("'d2l' is not one of canvas, moodle, blackboard"));
    CHECK(parse_lms("blackboard") == Lms::blackboard);
}

TEST_CASE("Gradescope's results: visible scored tests, or variant tests after the due date with the book's as feedback") {
    StudentRecord scored = scored_student("ada", 2);
    ExerciseRecord e;
    e.id = "swiglu_ffn_2d";
    e.variant = 7;
    e.parts = {{"gate", "correct", 2, 2, "correct"}, {"up", "wrong", 0, 3, "wrong: absolute error 1"}};
    scored.exercises = {e};
    StudentRecord book = scored;
    book.exercises[0].variant.reset();
    book.exercises[0].parts[1] = {"up", "correct", 3, 3, "correct"};
    book.score = 5;

    const auto plain = gradescope_results(book, nullptr, Lang::en);
    CHECK(plain["score"] == 5);
    CHECK(plain["output_format"] == "text");
    CHECK(plain["tests"].size() == 2);
    CHECK(plain["tests"][1]["visibility"] == "visible");
    CHECK(plain["tests"][1]["max_score"] == 3);

    const auto varied = gradescope_results(scored, &book, Lang::en);
    REQUIRE(varied["tests"].size() == 4);
    CHECK(varied["score"] == 2);
    CHECK(varied["tests"][1]["name"] == "swiglu_ffn_2d: up (book's inputs)");
    CHECK(varied["tests"][1]["status"] == "passed");
    CHECK_FALSE(varied["tests"][1].contains("max_score"));
    CHECK(varied["tests"][3]["name"] == "swiglu_ffn_2d: up");
    CHECK(varied["tests"][3]["status"] == "failed");
    CHECK(varied["tests"][3]["visibility"] == "after_due_date");

    // in Chinese, the prose around the parts' messages too
    const auto zh = gradescope_results(scored, &book, Lang::zh);
    CHECK(zh["tests"][1]["name"] == "swiglu_ffn_2d: up（书中的输入）");
    CHECK(zh["tests"][2]["output"] == "correct\n（变体 7 的输入）");
    CHECK(zh["output"].get<std::string>().find(" 分\n你的分数来自为你抽取的输入（变体）") != std::string::npos);
}
