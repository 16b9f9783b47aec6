// A class graded on an assignment: only its exercises counted, at its points, in every output; a
// misnamed file named with the closest exercise in the student's feedback, graded only when near
// names are accepted; the assignment's points in the resume fingerprint; report.html's TA view.
#include "checker/batch/archive.hpp"
#include "checker/batch/batch.hpp"
#include "checker/insight/report_html.hpp"
#include "checker/batch/detail/resume.hpp"

#include <doctest/doctest.h>

#include <fstream>

#include "exercise_testing.hpp"
#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

using testing::file_text;
using testing::repository;
using testing::shipped_exercises;
using testing::TempDir;

void put(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
}

GradeSettings assignment_settings(const fs::path& out, const fs::path& cache) {
    GradeSettings s;
    s.include_dir = repository() / "chapters";
    s.out = out;
    s.cache_dir = cache;
    s.jobs = 2;
    s.variants = true;
    s.run_limits.cpu_seconds = 1;
    s.run_limits.wall_seconds = 2;
    return s;
}

const StudentRecord& graded_student(const GradeReport& r, const std::string& id) {
    for (const StudentRecord& s : r.students)
        if (s.student == id) return s;
    FAIL("no student " << id);
    throw std::logic_error("unreachable");
}

// swiglu_ffn_2d at 3 points (its own: 6).
ExerciseSet week_one() { return shipped_exercises().only_exercises({{"swiglu_ffn_2d", 3.0, "test"}}); }

}  // namespace

TEST_CASE("grade: an assignment counts only its exercises at its points; a misnamed file is named, graded only when allowed") {
    TempDir dir("grade-assignment");
    const ExerciseSet set = week_one();
    const std::string solved = file_text(repository() / "tests/solved/ch25/swiglu_ffn_2d.cpp");
    const fs::path subs = dir.path / "submissions";
    // ada: the assigned program, and an unassigned exercise's template (a known name: no remark)
    put(subs / "ada/chapters/ch25/swiglu_ffn_2d.cpp", solved);
    put(subs / "ada/chapters/ch25/rms_norm_zero_row.cpp", file_text(repository() / "chapters/ch25/rms_norm_zero_row.cpp"));
    // bob: the same program under a near name, and a file of no exercise's name
    write_archive(subs / "bob.zip", {{"swiglu_ffn2d.cpp", solved, "", false}, {"notes/main.cpp", "int main() {}\n", "", false}});
    const std::vector<Submission> class_ = find_submissions({subs});

    const GradeReport r = grade_submissions(set, class_, assignment_settings(dir.path / "out", dir.path / "cache"));
    const StudentRecord& ada = graded_student(r, "ada");
    CHECK(ada.exercises.size() == 1);
    CHECK(ada.score == doctest::Approx(3));
    CHECK(ada.max_score == doctest::Approx(3));
    CHECK(ada.misnamed.empty());
    const StudentRecord& bob = graded_student(r, "bob");
    CHECK(bob.score == 0);
    REQUIRE(bob.misnamed.size() == 2);
    CHECK(bob.misnamed[0].file == "notes/main.cpp");
    CHECK(bob.misnamed[0].nearest == "");
    CHECK(bob.misnamed[1].file == "swiglu_ffn2d.cpp");
    CHECK(bob.misnamed[1].nearest == "swiglu_ffn_2d.cpp");
    CHECK(bob.misnamed[1].graded_as == "");
    CHECK(bob.exercises[0].note.find("swiglu_ffn2d.cpp: did you mean swiglu_ffn_2d.cpp?") != std::string::npos);

    const std::string gradebook = file_text(dir.path / "out/gradebook.csv");
    CHECK(gradebook.starts_with("student,swiglu_ffn_2d,total\r\nada,3,3\r\nbob,0,0\r\n"));
    const std::string results = file_text(dir.path / "out/results/bob.json");
    CHECK(results.find("\"did_you_mean\": \"swiglu_ffn_2d.cpp\"") != std::string::npos);
    CHECK(file_text(dir.path / "out/gradescope/bob.json").find("swiglu_ffn2d.cpp: did you mean swiglu_ffn_2d.cpp?") != std::string::npos);
    const std::string report = file_text(dir.path / "out/report.html");
    CHECK(report.find("<details class=\"student\" id=\"student-bob\"><summary><b>bob</b> 0/3</summary>") != std::string::npos);
    CHECK(report.find("swiglu_ffn2d.cpp: did you mean swiglu_ffn_2d.cpp?") != std::string::npos);
    CHECK(report.find("rms_norm_zero_row") == std::string::npos);  // no row of an exercise not assigned
    CHECK(file_text(dir.path / "out/junit.xml").find("rms_norm_zero_row") == std::string::npos);

    GradeSettings accepting = assignment_settings(dir.path / "near", dir.path / "cache");
    accepting.accept_near_names = true;
    const GradeReport near = grade_submissions(set, class_, accepting);
    CHECK(graded_student(near, "bob").score == doctest::Approx(3));
    CHECK(graded_student(near, "bob").misnamed[1].graded_as == "swiglu_ffn_2d");
    CHECK(graded_student(near, "bob").exercises[0].source == "swiglu_ffn2d.cpp");
}

TEST_CASE("grade: the assignment's exercises and points enter the resume fingerprint") {
    const GradeSettings s = assignment_settings("unused", "unused");
    const ExerciseSet own = shipped_exercises().only_exercises({{"swiglu_ffn_2d", std::nullopt, "test"}});
    const Digest a = run_fingerprint(week_one(), s, Isolation::limits_only);
    CHECK(a == run_fingerprint(week_one(), s, Isolation::limits_only));
    CHECK(a != run_fingerprint(own, s, Isolation::limits_only));
    CHECK(exercises_fingerprint(week_one()) != exercises_fingerprint(own));
    GradeSettings near = s;
    near.accept_near_names = true;
    CHECK(a != run_fingerprint(week_one(), near, Isolation::limits_only));
}

TEST_CASE("report.html: a section per student, sized to the assignment, its messages escaped") {
    Exercise e;
    e.id = "first";
    e.answers = {AnswerSpec{"a"}, AnswerSpec{"b"}};
    StudentRecord s;
    s.student = "ada";
    s.score = 1;
    s.max_score = 2;
    ExerciseRecord first{.id = "first", .status = "failing", .score = 1, .max_score = 2};
    first.parts = {{"a", "correct", 1, 1, ""}, {"b", "wrong", 0, 1, "b: 3 <script>, expected 4"}};
    first.compiler = "g++", first.redecided = true;  // clang's build lost the point, g++ decided
    ExerciseRecord other{.id = "other", .status = "not_done"};
    s.exercises = {first, other};
    const std::string html = students_html({&e}, {s});
    CHECK(html.find("<details class=\"student\" id=\"student-ada\"><summary><b>ada</b> 1/2</summary>") != std::string::npos);
    CHECK(html.find("<td><code>first</code></td><td>wrong</td><td class=\"num\">1/2</td><td>g++ (after clang)</td>"
                    "<td class=\"msg\">b: b: 3 &lt;script&gt;, expected 4</td>") != std::string::npos);
    CHECK(html.find("other") == std::string::npos);
}
