// Student ids as file names, JSON and printed text: one mapping, safe for any bytes.
#include "checker/outputs/student_id.hpp"
#include "checker/common/utf8.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>

using namespace blockcheck;

TEST_CASE("student ids: an ordinary id is its own file stem") {
    CHECK(student_file_stem("ada") == "ada");
    CHECK(student_file_stem("李雷 2024") == "李雷 2024");
    CHECK(student_file_stem("=HYPERLINK(\"x\")") == "=HYPERLINK(\"x\")");
    CHECK(student_file_stem("a.b") == "a.b");
}

TEST_CASE("student ids: bytes that are not safe in a file name are written %XX") {
    CHECK(student_file_stem("a\nb") == "a%0Ab");
    CHECK(student_file_stem("bad\xff") == "bad%FF");
    CHECK(student_file_stem("50%") == "50%25");
    CHECK(student_file_stem("a~b") == "a%7Eb");
    CHECK(student_file_stem("..zip") == "%2E.zip");
    CHECK(student_file_stem("") == "%");
}

TEST_CASE("student ids: a 240-byte id gets a stem of at most 100 bytes, distinct from its neighbours") {
    const std::string long_id(240, 'x');
    std::string other = long_id;
    other.back() = 'y';
    const std::string stem = student_file_stem(long_id);
    CHECK(stem.size() <= max_student_stem_bytes);
    CHECK(stem.starts_with(std::string(80, 'x') + "~"));
    CHECK(stem != student_file_stem(other));
    CHECK(student_file_stem(long_id) == stem);  // stable
    // Cut at a character boundary: 3-byte characters are never split.
    std::string chinese;
    for (int i = 0; i < 80; ++i) chinese += "\xe4\xb8\xad";
    const std::string cut = student_file_stem(chinese);
    CHECK(cut.size() <= max_student_stem_bytes);
    CHECK(cut.substr(0, cut.find('~')).size() % 3 == 0);
}

TEST_CASE("student ids: distinct ids never share a stem") {
    const std::set<std::string> ids = {"a", "a%0A", "a\n", "a%", "a%25", "a~0000000000000000", std::string(101, 'a'),
                                       std::string(100, 'a'), ".a", "%2Ea", "bad\xff", "bad%FF"};
    std::set<std::string> stems;
    for (const std::string& id : ids) stems.insert(student_file_stem(id));
    CHECK(stems.size() == ids.size());
}

TEST_CASE("student ids: printed with control characters and bad bytes escaped") {
    CHECK(printable_id("ada") == "ada");
    CHECK(printable_id("a\nb") == "a\\x0Ab");
    CHECK(printable_id("bad\xff") == "bad\\xFF");
    CHECK(printable_id("\x1b[2J") == "\\x1B[2J");
}

TEST_CASE("student ids: C1 controls are escaped too, and multi-line text keeps its line feeds only") {
    CHECK(printable_id("a\xc2\x9b" "2Jb") == "a\\xC2\\x9B2Jb");  // U+009B, a terminal's CSI
    CHECK(printable_id("\xc2\xa0nbsp") == "\xc2\xa0nbsp");       // U+00A0 is not a control
    CHECK(printable_text("one\x1b[2J\ntwo\r\n\x07three") == "one\\x1B[2J\ntwo\\x0D\n\\x07three");
    CHECK(printable_text("\n") == "\n");
    CHECK(printable_text("") == "");
}

TEST_CASE("student ids: UTF-8 through utfcpp: sequence lengths, and invalid forms are 0") {
    CHECK(utf8_length("a", 0) == 1);
    CHECK(utf8_length("\xe4\xb8\xad", 0) == 3);
    CHECK(utf8_length("\xf0\x9f\x98\x80x", 0) == 4);
    CHECK(utf8_length("x\xc3\xa9", 1) == 2);
    CHECK(utf8_length("\xc0\xaf", 0) == 0);          // overlong '/'
    CHECK(utf8_length("\xed\xa0\x80", 0) == 0);     // a surrogate
    CHECK(utf8_length("\xf4\x90\x80\x80", 0) == 0);  // above U+10FFFF
    CHECK(utf8_length("\xe4\xb8", 0) == 0);          // cut short
    CHECK(utf8_length("\x80", 0) == 0);
    CHECK(is_utf8("\xe4\xb8\xad ok"));
    CHECK_FALSE(is_utf8("bad\xff"));
}

TEST_CASE("student ids: the exact bytes survive the results file, invalid UTF-8 included") {
    for (const std::string& id : {std::string("ada"), std::string("bad\xff\xfe"), std::string("a\nb"), std::string(240, 'z')}) {
        nlohmann::ordered_json json;
        put_student_id(json, id);
        const std::string text = json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        CHECK(student_id_from(nlohmann::json::parse(text)) == id);
    }
    nlohmann::ordered_json json;
    put_student_id(json, "ok");
    CHECK_FALSE(json.contains("student_hex"));
}
