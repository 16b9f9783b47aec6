// report.html: the class at a glance, rendered from the records alone, with nothing fetched.
#include "checker/insight/report_html.hpp"

#include <doctest/doctest.h>

using namespace blockcheck;

namespace {

Exercise two_part_exercise(const std::string& id) {
    Exercise e;
    e.id = id;
    e.answers = {AnswerSpec{"a"}, AnswerSpec{"b"}};
    return e;
}

StudentRecord reported_student(const std::string& id, double a_score, const std::string& b_verdict, const std::string& message) {
    StudentRecord s;
    s.student = id;
    ExerciseRecord first{.id = "first", .status = a_score == 2 ? "done" : "failing", .score = a_score, .max_score = 2};
    first.parts = {{"a", "correct", 1, 1, ""}, {"b", a_score == 2 ? "correct" : b_verdict, a_score - 1, 1, message}};
    ExerciseRecord second{.id = "second", .status = "not_done", .score = 0, .max_score = 2};
    second.parts = {{"a", "missing", 0, 1, ""}, {"b", "missing", 0, 1, ""}};
    s.exercises = {first, second};
    s.score = a_score;
    s.max_score = 4;
    return s;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("report.html shows the histogram, success rates, verdicts and the commonest wrong answers") {
    const Exercise first = two_part_exercise("first"), second = two_part_exercise("second");
    const std::vector<StudentRecord> students{reported_student("ada", 2, "", ""), reported_student("bob", 1, "wrong", "wrong: absolute error 1e-3"),
                                              reported_student("cy", 1, "wrong", "wrong: absolute error 2e-3"),
                                              reported_student("dee", 1, "too_few_digits", "<script>alert(1)</script>")};
    const std::string html = report_html({&first, &second}, students);
    CHECK(html.starts_with("<!DOCTYPE html>"));
    CHECK(html.find("4 students, 2 exercises, 4 points") != std::string::npos);
    CHECK(html.find("<svg id=\"score-histogram\"") != std::string::npos);
    CHECK(count(html, "class=\"bar\"") == 10);
    // Totals 2/4 and 1/4: one student in the 50% bin, three in the 20% bin.
    CHECK(html.find("50-60%: 1, ") != std::string::npos);
    CHECK(html.find("20-30%: 3, ") != std::string::npos);
    CHECK(html.find("1/4 (25%)") != std::string::npos);  // first: one full mark of four
    CHECK(html.find("0/4 (0%)") != std::string::npos);   // second
    CHECK(html.find("<td>missing</td><td class=\"num\">8</td>") != std::string::npos);
    // The commonest wrong answer first, with a sample message; messages are escaped.
    const auto table = html.find("<table id=\"common-wrong\">");
    REQUIRE(table != std::string::npos);
    const auto wrong = html.find("<td><code>first</code></td><td><code>b</code></td><td>wrong</td><td class=\"num\">2</td>", table);
    const auto digits = html.find("<td>too_few_digits</td><td class=\"num\">1</td>", table);
    CHECK(wrong != std::string::npos);
    CHECK(digits != std::string::npos);
    CHECK(wrong < digits);
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
    CHECK(html.find("http://") == std::string::npos);  // nothing fetched
    CHECK(html.find("https://") == std::string::npos);
}

TEST_CASE("report.html of an empty class says so instead of dividing by zero") {
    const Exercise first = two_part_exercise("first");
    const std::string html = report_html({&first}, {});
    CHECK(html.find("0 students") != std::string::npos);
    CHECK(html.find("none: every answer given was correct") != std::string::npos);
    CHECK(html.find("nan") == std::string::npos);
}
