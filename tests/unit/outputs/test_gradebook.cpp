// What a batch's records render to: CSV quoting, XML that parses whatever a program printed,
// Gradescope's fields, the JSON round trip and the summary.
#include "checker/outputs/gradebook.hpp"
#include "checker/outputs/gradescope.hpp"

#include <doctest/doctest.h>
#include <pugixml.hpp>

#include <vector>

using namespace blockcheck;

namespace {

// A small well-formedness check of XML 1.0 as junit_xml writes it: one prolog, properly nested
// and matching tags, quoted attributes without '<', only the five named entities and numeric
// references, only allowed characters, valid UTF-8. Returns "" or what is wrong.
std::string xml_problem(const std::string& xml) {
    std::vector<std::string> open;
    std::size_t i = 0;
    bool root_seen = false;
    auto is_name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ':' || c == '.'; };
    auto check_text = [&](std::string_view text) -> std::string {
        for (std::size_t k = 0; k < text.size(); ++k) {
            const auto c = static_cast<unsigned char>(text[k]);
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return "control character " + std::to_string(c);
            if (c == '<') return "raw '<' in text";
            if (c == '&') {
                const auto end = text.find(';', k);
                if (end == std::string_view::npos) return "unterminated entity";
                const std::string_view entity = text.substr(k + 1, end - k - 1);
                const bool named = entity == "amp" || entity == "lt" || entity == "gt" || entity == "quot" || entity == "apos";
                const bool numeric = entity.size() > 1 && entity[0] == '#' &&
                                     entity.substr(1).find_first_not_of("0123456789") == std::string_view::npos;
                if (!named && !numeric) return "unknown entity &" + std::string(entity) + ";";
            }
            if (c >= 0x80) {  // UTF-8 sequence
                const int n = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC2 ? 1 : -1;
                if (n < 0 || k + static_cast<std::size_t>(n) >= text.size() + 0) return "bad UTF-8 lead byte";
                for (int m = 1; m <= n; ++m)
                    if ((static_cast<unsigned char>(text[k + static_cast<std::size_t>(m)]) & 0xC0) != 0x80) return "bad UTF-8";
                if (c == 0xEF && static_cast<unsigned char>(text[k + 1]) == 0xBF &&
                    (static_cast<unsigned char>(text[k + 2]) == 0xBE || static_cast<unsigned char>(text[k + 2]) == 0xBF))
                    return "U+FFFE or U+FFFF";
                k += static_cast<std::size_t>(n);
            }
        }
        return "";
    };
    if (!xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")) return "no prolog";
    i = xml.find("?>") + 2;
    while (i < xml.size()) {
        const auto lt = xml.find('<', i);
        const std::string_view text(xml.data() + i, (lt == std::string::npos ? xml.size() : lt) - i);
        if (auto p = check_text(text); !p.empty()) return p;
        if (open.empty() && text.find_first_not_of(" \t\r\n") != std::string_view::npos) return "text outside the root";
        if (lt == std::string::npos) break;
        auto gt = lt;  // the tag's end: a '>' outside quotes (XML allows a raw '>' in an attribute)
        for (bool quoted = false; ++gt < xml.size() && (quoted || xml[gt] != '>');) quoted ^= xml[gt] == '"';
        if (gt >= xml.size()) return "unterminated tag";
        std::string tag = xml.substr(lt + 1, gt - lt - 1);
        if (tag.starts_with("/")) {
            if (open.empty() || open.back() != tag.substr(1)) return "mismatched </" + tag.substr(1) + ">";
            open.pop_back();
        } else {
            const bool empty = tag.ends_with("/");
            if (empty) tag.pop_back();
            std::size_t k = 0;
            while (k < tag.size() && is_name(tag[k])) ++k;
            const std::string name = tag.substr(0, k);
            if (name.empty()) return "tag without a name";
            while (k < tag.size()) {  // attributes: name="value"
                while (k < tag.size() && tag[k] == ' ') ++k;
                if (k == tag.size()) break;
                const std::size_t start = k;
                while (k < tag.size() && is_name(tag[k])) ++k;
                if (k == start || k + 1 >= tag.size() || tag[k] != '=' || tag[k + 1] != '"') return "bad attribute in <" + name + ">";
                const auto close = tag.find('"', k + 2);
                if (close == std::string::npos) return "unterminated attribute";
                const std::string_view value(tag.data() + k + 2, close - k - 2);
                if (auto p = check_text(value); !p.empty()) return "attribute: " + p;
                if (value.find_first_of("\n\t") != std::string_view::npos) return "raw newline in an attribute";
                k = close + 1;
            }
            if (open.empty() && root_seen) return "second root element";
            root_seen = true;
            if (!empty) open.push_back(name);
        }
        i = gt + 1;
    }
    if (!open.empty()) return "unclosed <" + open.back() + ">";
    return root_seen ? "" : "no root element";
}

constexpr char nasty_bytes[] =
    "line </testcase> & \"quotes\" 'apos' ]]> \x01\x02\x1b[31m\x7f bad\xff\xfe utf8 "
    "\xed\xa0\x80 surrogate \xef\xbf\xbf nonchar \xe4\xb8\xad ok\r\nnext\0nul";
const std::string nasty(nasty_bytes, sizeof nasty_bytes - 1);

StudentRecord sample(const std::string& id, const std::string& message) {
    StudentRecord s;
    s.student = id;
    s.submission = id + ".zip";
    s.key = "0123";
    ExerciseRecord a;
    a.id = "ex_a";
    a.status = "failing";
    a.variant = 42;
    a.source = "chapters/ch25/ex_a.cpp";
    a.parts = {{"p1", "correct", 1, 1, "correct"}, {"p2", "wrong", 0, 2, message}};
    a.issues = {message};
    ExerciseRecord b;
    b.id = "ex_b";
    b.status = "failing";
    b.note = "ex_b.cpp:3:1: error: " + message;
    b.parts = {{"q", "compile_error", 0, 3, "compile_error"}};
    ExerciseRecord c;
    c.id = "ex_c";
    c.status = "done";
    c.parts = {{"r", "grader_fault", 1, 1, "the grader failed"}};  // credited
    s.exercises = {a, b, c};
    for (auto& e : s.exercises) {
        e.score = e.max_score = 0;
        for (auto& p : e.parts) e.score += p.score, e.max_score += p.max_score;
        s.score += e.score, s.max_score += e.max_score;
    }
    return s;
}

Exercise exercise_worth(const std::string& id, double points) {
    Exercise e;
    e.id = id;
    e.answers.push_back({"x", AnswerKind::number, points, {}, {}});
    return e;
}

}  // namespace

TEST_CASE("gradebook: one row a student, one column an exercise, then the total; a grader fault is credited") {
    const Exercise a = exercise_worth("ex_a", 3), b = exercise_worth("ex_b", 3), c = exercise_worth("ex_c", 1);
    const std::string csv = gradebook_csv({&a, &b, &c}, {sample("ada", "m"), sample("lovelace, ada \"al\"", "m")});
    CHECK(csv == "student,ex_a,ex_b,ex_c,total\r\n"
                 "ada,1,0,1,2\r\n"
                 "\"lovelace, ada \"\"al\"\"\",1,0,1,2\r\n");
    const auto rows = parse_csv(csv);
    REQUIRE(rows.size() == 3);
    CHECK(rows[2][0] == "lovelace, ada \"al\"");
}

TEST_CASE("gradebook: scores are written in their shortest form") {
    CHECK(score_text(3) == "3");
    CHECK(score_text(2.5) == "2.5");
    CHECK(score_text(0.1 + 0.2) == "0.3");
    CHECK(score_text(-0.0) == "0");
}

TEST_CASE("gradebook: JUnit shows control bytes, invalid UTF-8 and non-characters escaped, and parses") {
    const std::string xml = junit_xml({sample(nasty, nasty)});
    CHECK(xml_problem(xml) == "");
    pugi::xml_document doc;
    const pugi::xml_parse_result parsed = doc.load_string(xml.c_str());
    REQUIRE_MESSAGE(parsed, parsed.description());
    const pugi::xml_node suite = doc.child("testsuites").child("testsuite");
    const std::string name = suite.attribute("name").value();
    CHECK(name.find("\\x01\\x02\\x1B[31m\\x7F bad\\xFF\\xFE utf8") != std::string::npos);
    CHECK(name.find("\\xEF\\xBF\\xBF nonchar \xe4\xb8\xad ok\\x0D") != std::string::npos);
    CHECK(name.find("line </testcase> & \"quotes\"") == 0);  // markup characters read back as written
    const std::string body = suite.child("testcase").next_sibling().child("failure").text().get();
    CHECK(body.find("\\x1B[31m") != std::string::npos);
    CHECK(body.find("\nnext\\x00nul") != std::string::npos);  // line feeds kept, NUL shown
}

TEST_CASE("gradebook: the well-formedness check itself catches broken XML") {
    const std::string prolog = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    CHECK(xml_problem(prolog + "<a><b></a></b>") != "");
    CHECK(xml_problem(prolog + "<a>x & y</a>") != "");
    CHECK(xml_problem(prolog + "<a>\x01</a>") != "");
    CHECK(xml_problem(prolog + "<a x=\"1\"></a>") == "");
}

TEST_CASE("gradebook: JUnit has a testsuite a student and a testcase a part, and parses whatever was printed") {
    const std::string xml = junit_xml({sample("ada", nasty), sample("b&b <x>", nasty)});
    CHECK(xml_problem(xml) == "");
    CHECK(xml.find("<testsuite name=\"ada\" tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\"") != std::string::npos);
    pugi::xml_document doc;
    REQUIRE(doc.load_string(xml.c_str()));
    CHECK(std::string(doc.child("testsuites").last_child().attribute("name").value()) == "b&b <x>");
    CHECK(xml.find("<testcase classname=\"ada.ex_a\" name=\"p1\" />") != std::string::npos);
    CHECK(xml.find("<failure type=\"wrong\"") != std::string::npos);
    CHECK(xml.find("<error type=\"compile_error\"") != std::string::npos);
    CHECK(xml.find("<skipped message=\"grader_fault") != std::string::npos);
    CHECK(xml.find("<testsuites name=\"blockcheck grade\" tests=\"8\" failures=\"2\" errors=\"2\" skipped=\"2\"") !=
          std::string::npos);
}

TEST_CASE("gradebook: an unreadable submission makes every testcase an error") {
    StudentRecord s = sample("bob", "m");
    s.error = "bob.zip: entry '../x': path leaves the submission folder";
    const std::string xml = junit_xml({s});
    CHECK(xml_problem(xml) == "");
    CHECK(xml.find("errors=\"4\"") != std::string::npos);
    CHECK(xml.find("type=\"bad_submission\"") != std::string::npos);
}

TEST_CASE("gradebook: Gradescope's results.json has the fields Gradescope reads") {
    const auto j = gradescope_json(sample("ada", nasty), Lang::en);
    CHECK(j.at("score").get<double>() == 2);
    CHECK(j.at("output").is_string());
    REQUIRE(j.at("tests").size() == 4);
    for (const auto& t : j["tests"]) {
        CHECK(t.at("name").is_string());
        CHECK(t.at("score").is_number());
        CHECK(t.at("max_score").is_number());
        CHECK((t.at("status") == "passed" || t.at("status") == "failed"));
        CHECK(t.at("output").is_string());
    }
    CHECK(j["tests"][0]["name"] == "ex_a: p1");
    CHECK(j["tests"][0]["status"] == "passed");
    CHECK(j["tests"][1]["status"] == "failed");
    CHECK(j["tests"][2]["output"].get<std::string>().find("error:") != std::string::npos);  // the compiler's note
    // Invalid UTF-8 from a program's output never makes the JSON unwritable.
    CHECK_NOTHROW(dump_json(j));
    CHECK(nlohmann::json::parse(dump_json(j))["score"] == 2);
    CHECK(j["tests"][3]["status"] == "passed");  // a credited grader fault
}

TEST_CASE("gradebook: a student's record survives the JSON round trip") {
    const StudentRecord s = sample("ada", "message");
    const StudentRecord back = student_from_json(nlohmann::json::parse(dump_json(student_json(s))));
    CHECK(dump_json(student_json(back)) == dump_json(student_json(s)));
    CHECK(back.exercises[0].variant == std::optional<std::uint64_t>(42));
    CHECK_FALSE(back.exercises[1].variant);
    CHECK(back.has_grader_fault());
    CHECK_THROWS(student_from_json(nlohmann::json::parse("{\"student\": 3}")));
}

TEST_CASE("gradebook: a seed is written as a string of its digits, exact past 2^53; a bare integer of before is read") {
    StudentRecord s = sample("ada", "message");
    s.exercises[0].variant = 2900177963635678131ull;  // rounds to ...128 as a double
    const nlohmann::json written = nlohmann::json::parse(dump_json(student_json(s)));
    CHECK(written["exercises"][0]["variant"] == "2900177963635678131");
    CHECK(student_from_json(written).exercises[0].variant == std::optional<std::uint64_t>(2900177963635678131ull));
    nlohmann::json before = written;
    before["exercises"][0]["variant"] = 2900177963635678131ull;
    CHECK(student_from_json(before).exercises[0].variant == std::optional<std::uint64_t>(2900177963635678131ull));
    for (const char* bad : {"\"-1\"", "\"12x\"", "\"\"", "1.5", "\"18446744073709551616\""}) {
        before["exercises"][0]["variant"] = nlohmann::json::parse(bad);
        CHECK_THROWS_WITH_AS(student_from_json(before), doctest::Contains("a variant seed is a string of decimal digits"),
                             std::runtime_error);
    }
}

TEST_CASE("gradebook: the book's numbers printed are said in junit.xml and summary.txt, for a person to look at") {
    StudentRecord s = sample("cy", "element 1 is wrong");
    s.exercises[0].parts[1].diagnosis_id = "hard_coded";
    s.exercises[0].parts[1].diagnosis_message = "the program seems to print the book's numbers";
    CHECK(printed_constant_parts(s.exercises[0]) == std::vector<std::string>{"p2"});
    CHECK(printed_constants_text(s.exercises[1], Lang::en).empty());
    const std::string seen = printed_constants_text(s.exercises[0], Lang::en);
    CHECK(seen == "p2: the same text printed on the book's inputs and on variant 42 (right on the first, wrong on the second): "
                  "the book's numbers printed instead of computed? For a person to look at");
    CHECK(junit_xml({s}).find("the same text printed on the book's inputs and on variant 42") != std::string::npos);
    CHECK(junit_xml({s}).find("Likely mistake (hard_coded): the program seems to print the book's numbers") != std::string::npos);
    const Exercise a = exercise_worth("ex_a", 3);
    const std::string summary = summary_text({&a}, {s});
    CHECK(summary.find("the same numbers printed on the book's inputs and on the student's variant (for a person to look at, not a "
                       "verdict):\n  cy / ex_a: p2: the same text") != std::string::npos);
}

TEST_CASE("gradebook: the summary gives means, histograms, verdict counts and what went wrong") {
    const Exercise a = exercise_worth("ex_a", 3), b = exercise_worth("ex_b", 3), c = exercise_worth("ex_c", 1);
    StudentRecord bad = sample("bob", "m");
    bad.error = "bob.zip: not a readable archive";
    const std::string text = summary_text({&a, &b, &c}, {sample("ada", "m"), bad});
    CHECK(text.find("2 students, 3 exercises, 7 points") != std::string::npos);
    CHECK(text.find("ex_a") != std::string::npos);
    CHECK(text.find("correct") != std::string::npos);
    CHECK(text.find("bob: bob.zip: not a readable archive") != std::string::npos);
    CHECK(text.find("ada / ex_c") != std::string::npos);  // the grader fault
}

TEST_CASE("gradebook: which compiler decided each program is in the results, counted in the summary") {
    const Exercise a = exercise_worth("ex_a", 3), b = exercise_worth("ex_b", 3), c = exercise_worth("ex_c", 1);
    StudentRecord s = sample("ada", "m");
    s.exercises[0].compiler = "clang";
    s.exercises[1].compiler = "g++", s.exercises[1].redecided = true;
    const nlohmann::ordered_json json = student_json(s);
    CHECK(json["exercises"][0]["compiler"] == "clang");
    CHECK_FALSE(json["exercises"][0].contains("redecided"));
    CHECK(json["exercises"][1]["compiler"] == "g++");
    CHECK(json["exercises"][1]["redecided"] == true);
    const StudentRecord back = student_from_json(nlohmann::json::parse(dump_json(json)));
    CHECK(back.exercises[1].compiler == "g++");
    CHECK(back.exercises[1].redecided);
    CHECK(summary_text({&a, &b, &c}, {s}).find("programs decided by clang 1, by g++ 1 (1 of them after clang's build lost a "
                                              "point)") != std::string::npos);
    CHECK(summary_text({&a, &b, &c}, {sample("bob", "m")}).find("programs decided") == std::string::npos);  // none named
}
