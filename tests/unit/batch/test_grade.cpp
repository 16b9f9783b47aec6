// Batch grading end to end on a small class and two exercises: scores, archives, links,
// variants, reuse of unchanged students, and the shard split.
#include "checker/batch/archive.hpp"
#include "checker/batch/batch.hpp"
#include "checker/batch/merge.hpp"
#include "checker/outputs/student_id.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/exercise/variants.hpp"

#include <doctest/doctest.h>
#include <pugixml.hpp>
#include <unistd.h>

#include <fcntl.h>
#include <sys/file.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "temp_dir.hpp"
#include "source_tree.hpp"
#include "grade_fixtures.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

using namespace blockcheck::grade_fixtures;

namespace {

using testing::file_text;
using testing::repository;
using testing::TempDir;

// Grades `all` as `count` shards into <dir>/shard1, <dir>/shard2, ...; returns those folders.
std::vector<fs::path> grade_in_shards(const ExerciseSet& set, const std::vector<Submission>& all, const GradeSettings& settings,
                                      const fs::path& dir, unsigned count) {
    std::vector<fs::path> outs;
    for (unsigned k = 1; k <= count; ++k) {
        GradeSettings s = settings;
        s.out = dir / ("shard" + std::to_string(k));
        s.shard = Shard{k, count};
        std::vector<Submission> mine;
        for (const Submission& sub : all)
            if (in_shard(sub.student, *s.shard)) mine.push_back(sub);
        grade_submissions(set, mine, s);
        outs.push_back(s.out);
    }
    return outs;
}

// Prints the book's answers to swiglu_ffn_2d whatever the inputs: right on the book's inputs only
// (the e2e scripts' hard-coded submission too).
const std::string book_constants = file_text(repository() / "tests/e2e/lib/book_constants_swiglu_ffn_2d.cpp");

}  // namespace

TEST_CASE("grade: --shard K/N parses, and the shards split the students without overlap") {
    CHECK(parse_shard("2/5").index == 2);
    CHECK(parse_shard("2/5").count == 5);
    CHECK(parse_shard("1/1").text() == "1/1");
    for (const char* bad : {"0/3", "4/3", "3", "a/b", "/3", "1/0", "-1/3"}) CHECK_THROWS_AS(parse_shard(bad), InputFileError);
    std::vector<int> sizes(4);
    for (int i = 0; i < 400; ++i) {
        int in = 0;
        for (unsigned k = 1; k <= 4; ++k)
            if (in_shard("student" + std::to_string(i), {k, 4})) ++in, ++sizes[k - 1];
        CHECK(in == 1);
    }
    for (int size : sizes) CHECK(size > 60);  // roughly a quarter each
}

TEST_CASE("grade: submissions are the folders and archives of each folder, by id") {
    TempDir dir("grade-find");
    fs::create_directories(dir.path / "a/ada");
    fs::create_directories(dir.path / "a/.hidden");
    write(dir.path / "a/bob.tar.gz", "");
    write(dir.path / "a/readme.txt", "");
    fs::create_directories(dir.path / "b/cy.zip.d");
    write(dir.path / "b/dee.ZIP", "");
    std::vector<IgnoredEntry> ignored;
    const auto found = find_submissions({dir.path / "a", dir.path / "b"}, &ignored);
    REQUIRE(found.size() == 4);
    CHECK(found[0].student == "ada");
    CHECK_FALSE(found[0].archive);
    CHECK(found[1].student == "bob");
    CHECK(found[1].archive);
    CHECK(found[2].student == "cy.zip.d");
    CHECK(found[3].student == "dee");
    REQUIRE(ignored.size() == 2);
    CHECK(ignored[0].path == (dir.path / "a/.hidden").string());
    CHECK(ignored[0].reason.en == "a hidden name (it starts with a dot)");
    CHECK(ignored[1].path == (dir.path / "a/readme.txt").string());
    CHECK(ignored[1].reason.en.starts_with("neither a folder nor an archive"));
    write(dir.path / "b/ada.zip", "");
    CHECK_THROWS_WITH_AS(find_submissions({dir.path / "a", dir.path / "b"}),
                         doctest::Contains("two submissions for student 'ada' in two of the folders given"), InputFileError);
    // In one folder, the student's own doing: one submission with its rivals, by path.
    write(dir.path / "b/cy.zip.d.tgz", "");
    fs::create_directories(dir.path / "b/dee");
    const auto rivals = find_submissions({dir.path / "b"});
    REQUIRE(rivals.size() == 3);
    CHECK(rivals[1].student == "cy.zip.d");
    CHECK(rivals[1].rivals == std::vector<fs::path>{dir.path / "b/cy.zip.d.tgz"});
    CHECK(rivals[2].path == dir.path / "b/dee");
    CHECK(rivals[2].rivals == std::vector<fs::path>{dir.path / "b/dee.ZIP"});
    CHECK(rivals_problem(rivals[2])->en == "2 submissions for student 'dee': dee and dee.ZIP; none was graded: hand in one of them");
    CHECK_FALSE(rivals_problem(rivals[0]));
    CHECK_THROWS_AS(find_submissions({dir.path / "nowhere"}), InputFileError);
}

TEST_CASE("grade: a small class is graded, written out, and an unchanged rerun grades nobody again") {
    TempDir dir("grade-class");
    const ExerciseSet set = ExerciseSet::load(small_root(dir.path));
    REQUIRE(set.all().size() == 2);
    const fs::path subs = dir.path / "submissions";
    // ada: both solved, where the repository keeps them.
    write(subs / "ada/chapters/ch25/swiglu_ffn_2d.cpp", solved("swiglu_ffn_2d"));
    write(subs / "ada/chapters/ch25/rms_norm_zero_row.cpp", solved("rms_norm_zero_row"));
    // bob: a zip, one solved and one untouched template, flat, and a stray copy deeper down.
    write_archive(subs / "bob.zip", {{"swiglu_ffn_2d.cpp", solved("swiglu_ffn_2d"), "", false},
                                     {"rms_norm_zero_row.cpp", file_text(repository() / "chapters/ch25/rms_norm_zero_row.cpp"), "", false},
                                     {"old/rms_norm_zero_row.cpp", "garbage", "", false}});
    // cy: the book's constants, which fail a variant.
    write(subs / "cy/swiglu_ffn_2d.cpp", book_constants);
    // dee: a tar.gz with a ../ entry.
    write_archive(subs / "dee.tar.gz", {{"swiglu_ffn_2d.cpp", solved("swiglu_ffn_2d"), "", false},
                                        {"../../rms_norm_zero_row.cpp", "escaped", "", false}});
    // eve: a link to ada's file instead of a file.
    fs::create_directories(subs / "eve");
    fs::create_symlink(subs / "ada/chapters/ch25/swiglu_ffn_2d.cpp", subs / "eve/swiglu_ffn_2d.cpp");

    GradeSettings settings = settings_for(dir.path / "out");
    settings.variants = true;
    const auto submissions = find_submissions({subs});
    std::vector<std::string> progress;
    const GradeReport first = grade_submissions(set, submissions, settings, [&](const GradeProgress& p) {
        progress.push_back(p.record->student);
        CHECK(p.total == 5);
        CHECK(fs::exists(dir.path / "out/results" / (p.record->student + ".json")));  // written before it is reported
    });
    CHECK(progress.size() == 5);
    CHECK(first.graded == 5);
    CHECK(first.reused == 0);
    // Blocks, not SUBCASEs, over the one class graded above: doctest would run the test (and
    // grade the class) again for each subcase. The last block changes the class, so it is last.

    {  // each student's score, sources, variants and errors
        const StudentRecord& ada = student(first, "ada");
        CHECK(ada.score == 11);
        CHECK(ada.max_score == 11);
        CHECK(exercise(ada, "swiglu_ffn_2d").source == "chapters/ch25/swiglu_ffn_2d.cpp");
        CHECK(exercise(ada, "swiglu_ffn_2d").variant == student_variant_seed(set.at("swiglu_ffn_2d"), "ada"));

        const StudentRecord& bob = student(first, "bob");
        CHECK(bob.score == 6);
        CHECK(exercise(bob, "rms_norm_zero_row").status == "not_done");
        CHECK(exercise(bob, "rms_norm_zero_row").source == "rms_norm_zero_row.cpp");  // the shallower one
        CHECK(bob.notes.size() == 1);

        const StudentRecord& cy = student(first, "cy");
        CHECK(cy.score < 6);
        CHECK(exercise(cy, "rms_norm_zero_row").parts[0].verdict == "missing");
        CHECK(exercise(cy, "rms_norm_zero_row").parts[0].message.find("no file named rms_norm_zero_row.cpp") != std::string::npos);

        const StudentRecord& dee = student(first, "dee");
        CHECK(dee.score == 6);  // the ../ entry is never written, and the rest is graded
        CHECK(dee.max_score == 11);
        CHECK(dee.error.empty());
        CHECK(dee.notes == std::vector<std::string>{
                               "archive entry ../../rms_norm_zero_row.cpp: path leaves the submission folder: not unpacked"});
        CHECK_FALSE(fs::exists(dir.path / "rms_norm_zero_row.cpp"));
        CHECK_FALSE(fs::exists(dir.path / "out/rms_norm_zero_row.cpp"));

        const StudentRecord& eve = student(first, "eve");
        CHECK(eve.score == 0);
        CHECK(eve.notes.at(0).find("is a link; links are not graded; hand in the file") != std::string::npos);
        // the exercise says why, naming the file (not "no file named ...")
        CHECK(exercise(eve, "swiglu_ffn_2d").parts[0].message == "swiglu_ffn_2d.cpp is a link; links are not graded; hand in the file");
    }
    {  // the gradebook, junit.xml, summary.txt and the per-student JSON files
        const auto rows = parse_csv(file_text(dir.path / "out/gradebook.csv"));
        REQUIRE(rows.size() == 6);
        // Columns in the exercises' order on the board.
        const bool rms_first = set.all()[0].id == "rms_norm_zero_row";
        auto row = [&](std::string id, std::string rms, std::string swiglu, std::string total) {
            return rms_first ? std::vector<std::string>{id, rms, swiglu, total} : std::vector<std::string>{id, swiglu, rms, total};
        };
        CHECK(rows[0] == row("student", "rms_norm_zero_row", "swiglu_ffn_2d", "total"));
        CHECK(rows[1] == row("ada", "5", "6", "11"));
        CHECK(rows[2] == row("bob", "0", "6", "6"));
        for (const char* f : {"junit.xml", "summary.txt", "results/ada.json", "gradescope/ada.json", "results/dee.json"})
            CHECK(fs::exists(dir.path / "out" / f));
        const auto json = read_json_exact(dir.path / "out/results/cy.json");
        const auto& swiglu = json["exercises"][rms_first ? 1 : 0];
        CHECK(swiglu["id"] == "swiglu_ffn_2d");
        CHECK(swiglu["variant"].get<std::string>() == std::to_string(student_variant_seed(set.at("swiglu_ffn_2d"), "cy")));
        CHECK(swiglu["parts"][0].contains("verdict"));
    }
    {  // an unchanged rerun grades nobody; a changed source or other inputs grade again
        // An unchanged rerun reuses every submission.
        const std::string gradebook = file_text(dir.path / "out/gradebook.csv");
        const GradeReport second = grade_submissions(set, submissions, settings);
        CHECK(second.reused == 5);
        CHECK(second.compiles == 0);
        CHECK(file_text(dir.path / "out/gradebook.csv") == gradebook);

        // A changed source grades that student again, and only that student.
        write(subs / "cy/swiglu_ffn_2d.cpp", solved("swiglu_ffn_2d"));
        const GradeReport third = grade_submissions(set, submissions, settings);
        CHECK(third.reused == 4);
        CHECK(student(third, "cy").score == 6);

        // Without variants nothing is reused: the inputs differ.
        write(subs / "cy/swiglu_ffn_2d.cpp", book_constants);
        settings.variants = false;
        const GradeReport fourth = grade_submissions(set, submissions, settings);
        CHECK(fourth.reused == 0);
        CHECK(student(fourth, "cy").score == 6);
        CHECK_FALSE(exercise(student(fourth, "cy"), "swiglu_ffn_2d").variant);
    }
}

TEST_CASE("grade: shards merged give the same class files as one run") {
    TempDir dir("grade-merge");
    const ExerciseSet set = ExerciseSet::load(small_root(dir.path));
    const fs::path subs = dir.path / "submissions";
    for (int i = 0; i < 6; ++i) {
        const std::string id = "s" + std::to_string(i);
        write(subs / id / "swiglu_ffn_2d.cpp", i % 2 ? solved("swiglu_ffn_2d") : book_constants);
    }
    const auto all = find_submissions({subs});
    GradeSettings whole = settings_for(dir.path / "whole");
    whole.variants = true;
    grade_submissions(set, all, whole);
    const std::vector<fs::path> outs = grade_in_shards(set, all, whole, dir.path, 3);
    std::vector<std::string> warnings;
    const auto merged = merge_outputs(outs, dir.path / "merged", set, &warnings);
    CHECK(warnings.empty());
    CHECK(merged.size() == 6);
    CHECK(file_text(dir.path / "merged/gradebook.csv") == file_text(dir.path / "whole/gradebook.csv"));
    CHECK(file_text(dir.path / "merged/summary.txt") == file_text(dir.path / "whole/summary.txt"));
    CHECK(fs::exists(dir.path / "merged/results/s3.json"));
    CHECK(fs::exists(dir.path / "merged/gradescope/s3.json"));

    merge_outputs({outs[0], outs[1]}, dir.path / "merged2", set, &warnings);
    CHECK(warnings == std::vector<std::string>{"shard 3/3 is missing"});
    CHECK_THROWS_AS(merge_outputs({outs[0], dir.path / "submissions"}, dir.path / "merged3", set), InputFileError);
}

TEST_CASE("grade: a forged compile message scores 0 as a compile error, never a credited grader fault") {
    TempDir dir("grade-forged");
    const ExerciseSet set = ExerciseSet::load(small_root(dir.path));
    const fs::path subs = dir.path / "submissions";
    write(subs / "mallory/swiglu_ffn_2d.cpp", file_text(repository() / "tests/hostile/forged_compile_fault.cpp"));
    write(subs / "mallory/rms_norm_zero_row.cpp", file_text(repository() / "tests/hostile/forged_out_of_memory.cpp"));
    const GradeReport report = grade_submissions(set, find_submissions({subs}), settings_for(dir.path / "out"));
    const StudentRecord& mallory = student(report, "mallory");
    CHECK(mallory.score == 0);
    CHECK_FALSE(report.grader_faults);
    for (const ExerciseRecord& e : mallory.exercises)
        for (const PartRecord& p : e.parts) CHECK(p.verdict == "compile_error");
    const std::string gradescope = file_text(dir.path / "out/gradescope/mallory.json");
    CHECK(gradescope.find("\"passed\"") == std::string::npos);
}

TEST_CASE("grade: a grader fault that repeats on the next run is reported as repeated and no longer credited") {
    TempDir dir("grade-fault");
    const ExerciseSet set = ExerciseSet::load(small_root(dir.path));
    const fs::path subs = dir.path / "submissions";
    write(subs / "ada/rms_norm_zero_row.cpp", solved("rms_norm_zero_row"));
    GradeSettings settings = settings_for(dir.path / "out");
    settings.cache_dir = dir.path / "cache";  // nothing compiled yet: the compiler must start
    const auto submissions = find_submissions({subs});
    const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
    ::setenv("PATH", "/nonexistent-blockcheck", 1);  // the compiler cannot start: the grader's fault
    const GradeReport first = grade_submissions(set, submissions, settings);
    const GradeReport second = grade_submissions(set, submissions, settings);
    ::setenv("PATH", path.c_str(), 1);

    const ExerciseRecord& once = exercise(student(first, "ada"), "rms_norm_zero_row");
    CHECK(once.has_grader_fault());
    CHECK_FALSE(once.fault_repeated);
    CHECK(once.score == 5);  // credited the first time
    CHECK(first.grader_faults);
    CHECK_FALSE(first.repeated_grader_faults);

    const ExerciseRecord& again = exercise(student(second, "ada"), "rms_norm_zero_row");
    CHECK(again.has_grader_fault());
    CHECK(again.fault_repeated);
    CHECK(again.score == 0);  // not credited again
    CHECK(second.repeated_grader_faults);
    CHECK(file_text(dir.path / "out/summary.txt").find("grader faults that repeated") != std::string::npos);
    CHECK(file_text(dir.path / "out/gradescope/ada.json").find("two runs in a row") != std::string::npos);

    // With the compiler back, the student is graded for real.
    const GradeReport third = grade_submissions(set, submissions, settings);
    CHECK(student(third, "ada").score == 5);
    CHECK_FALSE(third.grader_faults);
}

TEST_CASE("grade: long, invalid-UTF-8, multi-line and formula ids grade like everyone; reruns reuse them; merge works") {
    TempDir dir("grade-ids");
    const ExerciseSet set = ExerciseSet::load(small_root(dir.path));
    const fs::path subs = dir.path / "submissions";
    const std::vector<std::string> ids = {std::string(240, 'l'), "bad\xff\xfeid", "two\nlines", "=HYPERLINK(\"x\")",
                                          "+1", "-1", "@SUM(A1)", "ada"};
    for (const std::string& id : ids) write(subs / id / "rms_norm_zero_row.cpp", solved("rms_norm_zero_row"));
    // Entries that are not submissions, each listed with its reason.
    write(subs / "..zip", "");
    write(subs / "...zip", "");
    fs::create_directories(subs / "...dots");
    write(subs / "notes.txt", "");

    GradeSettings settings = settings_for(dir.path / "out");
    const auto submissions = find_submissions({subs}, &settings.ignored);
    REQUIRE(submissions.size() == ids.size());
    CHECK(settings.ignored.size() == 4);
    const GradeReport first = grade_submissions(set, submissions, settings);
    REQUIRE(first.students.size() == ids.size());
    for (const std::string& id : ids) {
        const std::string shown = printable_id(id);
        CAPTURE(shown);
        CHECK(student(first, id).score == 5);
        CHECK(fs::exists(dir.path / "out/results" / (student_file_stem(id) + ".json")));
        CHECK(fs::exists(dir.path / "out/gradescope" / (student_file_stem(id) + ".json")));
    }
    const std::string summary = file_text(dir.path / "out/summary.txt");
    for (const char* name : {"/..zip: a hidden name", "/...zip: a hidden name", "/...dots: a hidden name", "/notes.txt: neither"})
        CHECK_MESSAGE(summary.find(name) != std::string::npos, name);

    // No cell a student controls starts with = + - @, and every id reads back (with the apostrophe).
    const auto rows = parse_csv(file_text(dir.path / "out/gradebook.csv"));
    REQUIRE(rows.size() == ids.size() + 1);
    std::set<std::string> read_back;
    for (std::size_t r = 1; r < rows.size(); ++r) {
        CHECK(rows[r][0].find_first_of("=+-@") != 0);
        read_back.insert(rows[r][0].starts_with("'") ? rows[r][0].substr(1) : rows[r][0]);
    }
    std::set<std::string> shown;  // control bytes and invalid UTF-8 escaped, as printable_id writes them
    for (const std::string& id : ids) shown.insert(printable_id(id));
    CHECK(read_back == shown);

    // Unchanged: every one of them is reused, the invalid-UTF-8 id included.
    const GradeReport second = grade_submissions(set, submissions, settings);
    CHECK(second.reused == ids.size());

    // Shards merge, whatever the ids.
    const auto merged = merge_outputs(grade_in_shards(set, submissions, settings, dir.path, 2), dir.path / "merged", set);
    CHECK(merged.size() == ids.size());
    CHECK(file_text(dir.path / "merged/gradebook.csv") == file_text(dir.path / "out/gradebook.csv"));
}

TEST_CASE("grade: a second grader into the same output folder is refused while the first holds it") {
    TempDir dir("grade-lock");
    const ExerciseSet set = ExerciseSet::load(small_root(dir.path));
    const fs::path subs = dir.path / "submissions";
    write(subs / "ada/rms_norm_zero_row.cpp", solved("rms_norm_zero_row"));
    const fs::path out = dir.path / "out";
    fs::create_directories(out);
    const int fd = ::open((out / ".grade-lock").c_str(), O_RDWR | O_CREAT, 0600);
    REQUIRE(fd >= 0);
    REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);  // another grader, as far as the next one can tell
    CHECK_THROWS_WITH_AS(grade_submissions(set, find_submissions({subs}), settings_for(out)),
                         doctest::Contains("another grader"), InputFileError);
    CHECK_FALSE(fs::exists(out / "gradebook.csv"));
    ::close(fd);
    CHECK(student(grade_submissions(set, find_submissions({subs}), settings_for(out)), "ada").score == 5);
}

// Issue 21, hole 7: a folder id or an archive's entry name with terminal escapes (ESC [ 2 J
// clears the screen), other C0 and C1 controls and a formula start reaches no output raw.
TEST_CASE("grade: control bytes in an id or an archive entry's name reach no class file raw") {
    TempDir dir("grade-controls");
    const ExerciseSet set = ExerciseSet::load(small_root(dir.path));
    const fs::path subs = dir.path / "submissions";
    const std::string nasty = "=cmd\x1b[2J\x07\x01\r\x7f\xc2\x9b" "31m";  // formula, ESC [2J, BEL, SOH, CR, DEL, C1 CSI
    write(subs / nasty / "rms_norm_zero_row.cpp", solved("rms_norm_zero_row"));
    write(subs / "ada/rms_norm_zero_row.cpp", solved("rms_norm_zero_row"));
    // An archive whose link entry is never written: the note names the entry.
    write_archive(subs / "tar\x1b]0;owned\x07.tar.gz",
                  {{"\x1b[2J\x1b[1;31mrms_norm_zero_row.cpp\xc2\x9b" "2J", "", "/etc/passwd", false}});
    GradeSettings settings = settings_for(dir.path / "out");
    const GradeReport report = grade_class(set, {subs}, settings);
    REQUIRE(report.students.size() == 3);
    CHECK(student(report, nasty).score == 5);
    CHECK(report.bad_submissions == 0);
    CHECK(student(report, "tar\x1b]0;owned\x07").notes ==
          std::vector<std::string>{"archive entry \\x1B[2J\\x1B[1;31mrms_norm_zero_row.cpp\\xC2\\x9B2J: a link to '/etc/passwd': "
                                   "links are not unpacked"});  // escaped where it is made

    auto has_control = [](const std::string& text) {
        for (std::size_t i = 0; i < text.size(); ++i) {
            const auto c = static_cast<unsigned char>(text[i]);
            if ((c < 0x20 && c != '\n' && c != '\r' && c != '\t') || c == 0x7F) return true;
            if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xA0) return true;
        }
        return false;
    };
    const std::string summary = file_text(dir.path / "out/summary.txt");
    CHECK_FALSE(has_control(summary));
    const std::string gradebook = file_text(dir.path / "out/gradebook.csv");
    CHECK_FALSE(has_control(gradebook));
    CHECK_MESSAGE(gradebook.find("\r\n'=cmd\\x1B[2J\\x07\\x01\\x0D\\x7F\\xC2\\x9B31m,0,5,5\r\n") != std::string::npos,
                  gradebook);  // escaped, and no formula
    CHECK(gradebook.find("\r\ntar\\x1B]0;owned\\x07,0,0,0\r\n") != std::string::npos);
    CHECK_FALSE(has_control(file_text(dir.path / "out/report.html")));
    const std::string junit = file_text(dir.path / "out/junit.xml");
    CHECK_FALSE(has_control(junit));
    pugi::xml_document doc;
    const pugi::xml_parse_result parsed = doc.load_string(junit.c_str());
    CHECK_MESSAGE(parsed, parsed.description());
    int parts = 0;
    for (const StudentRecord& s : report.students)
        for (const ExerciseRecord& e : s.exercises) parts += static_cast<int>(e.parts.size());
    CHECK(parts > 3);
    CHECK(doc.child("testsuites").attribute("tests").as_int() == parts);
    std::set<std::string> suites;
    for (pugi::xml_node suite : doc.child("testsuites").children("testsuite")) suites.insert(suite.attribute("name").value());
    CHECK(suites.contains("=cmd\\x1B[2J\\x07\\x01\\x0D\\x7F\\xC2\\x9B31m"));
}
