// Grading a class: a student's two submissions, and the book's inputs told beside a variant.
#include "checker/batch/archive.hpp"
#include "checker/batch/batch.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/exercise/variants.hpp"

#include <doctest/doctest.h>

#include "grade_fixtures.hpp"

using namespace blockcheck;
using namespace blockcheck::grade_fixtures;

TEST_CASE("grade: a folder beside an archive of the same student is that student's error, naming both; the others are graded") {
    TempDir dir("grade-rivals");
    const ExerciseSet set = ExerciseSet::load(small_root(dir.path));
    const fs::path subs = dir.path / "submissions";
    write(subs / "ada/rms_norm_zero_row.cpp", solved("rms_norm_zero_row"));
    write(subs / "bob/rms_norm_zero_row.cpp", solved("rms_norm_zero_row"));
    write_archive(subs / "bob.tgz", {{"rms_norm_zero_row.cpp", solved("rms_norm_zero_row"), "", false}});
    const GradeReport report = grade_submissions(set, find_submissions({subs}), settings_for(dir.path / "out"));
    REQUIRE(report.students.size() == 2);
    CHECK(student(report, "ada").score == 5);
    const StudentRecord& bob = student(report, "bob");
    const std::string why = "2 submissions for student 'bob': bob and bob.tgz; none was graded: hand in one of them";
    CHECK(bob.error == why);
    CHECK(bob.score == 0);
    CHECK(bob.max_score == 11);
    CHECK(report.bad_submissions == 1);
    for (const ExerciseRecord& e : bob.exercises) CHECK(e.parts.at(0).message == "the submission could not be read: " + why);
    // Every output says so.
    CHECK(read_json_exact(dir.path / "out/results/bob.json")["status"] == "bad_submission");
    for (const char* file : {"results/bob.json", "gradescope/bob.json", "junit.xml", "summary.txt", "report.html"})
        CHECK_MESSAGE(file_text(dir.path / "out" / file).find("bob and bob.tgz") != std::string::npos, file);
}

TEST_CASE("grade: on variants, a part wrong on the book's inputs too carries that feedback in every output") {
    TempDir dir("grade-book-feedback");
    const ExerciseSet set = ExerciseSet::load(small_root(dir.path));
    const fs::path subs = dir.path / "submissions";
    std::string sigmoid = solved("swiglu_ffn_2d");
    const std::string silu = "act.push_back(g[i] / (1.0 + std::exp(-g[i])));";
    REQUIRE(sigmoid.find(silu) != std::string::npos);
    sigmoid.replace(sigmoid.find(silu), silu.size(), "act.push_back(1.0 / (1.0 + std::exp(-g[i])));");
    write(subs / "sam/swiglu_ffn_2d.cpp", sigmoid);
    write(subs / "cy/swiglu_ffn_2d.cpp", book_constants);  // right on the book's inputs: no such feedback
    GradeSettings settings = settings_for(dir.path / "out");
    settings.variants = true;
    const auto submissions = find_submissions({subs});
    const GradeReport report = grade_submissions(set, submissions, settings);

    const ExerciseRecord& sam = exercise(student(report, "sam"), "swiglu_ffn_2d");
    CHECK(sam.variant);
    REQUIRE_FALSE(sam.book_parts.empty());
    const PartRecord& book_silu = sam.book_parts.front();
    CHECK(book_silu.name == "silu");
    CHECK(book_silu.verdict == "wrong");
    CHECK(book_silu.diagnosis_id == "sigmoid_for_silu");
    CHECK(book_silu.score == 0);
    CHECK(exercise(student(report, "cy"), "swiglu_ffn_2d").book_parts.empty());
    CHECK(exercise(student(report, "cy"), "swiglu_ffn_2d").score < 6);

    const auto json = read_json_exact(dir.path / "out/results/sam.json");
    for (const auto& e : json["exercises"])
        if (e["id"] == "swiglu_ffn_2d") {
            CHECK(e["book_inputs"][0]["name"] == "silu");
            CHECK(e["book_inputs"][0]["diagnosis"]["id"] == "sigmoid_for_silu");
            CHECK_FALSE(e["book_inputs"][0].contains("score"));
        }
    const std::string gradescope = file_text(dir.path / "out/gradescope/sam.json");
    CHECK(gradescope.find("\"swiglu_ffn_2d: silu (book's inputs)\"") != std::string::npos);
    CHECK(file_text(dir.path / "out/junit.xml").find("On the book's inputs: ") != std::string::npos);
    CHECK(file_text(dir.path / "out/report.html").find("silu: On the book&#39;s inputs: ") != std::string::npos);
    CHECK(file_text(dir.path / "out/gradescope/cy.json").find("(book's inputs)") == std::string::npos);

    // The feedback is part of the result: a resumed run reuses it as written.
    const std::string written = file_text(dir.path / "out/results/sam.json");
    const GradeReport again = grade_submissions(set, submissions, settings);
    CHECK(again.reused == 2);
    CHECK(exercise(student(again, "sam"), "swiglu_ffn_2d").book_parts.size() == sam.book_parts.size());
    CHECK(file_text(dir.path / "out/results/sam.json") == written);
}
