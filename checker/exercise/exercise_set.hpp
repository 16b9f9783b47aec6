// Exercise definitions (data/exercises/<chapter>/<id>.json), loaded and checked once.
#pragma once

#include "checker/exercise/answer_compare.hpp"
#include "checker/exercise/expected.hpp"
#include "checker/common/i18n.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace blockcheck {

// The `name = value` lines a program reads on standard input.
std::string input_text(const InputList& inputs);

struct Exercise {
    std::string id, chapter, kind;           // kind: "exercise" or "worked-example"
    Text section;                            // where the book has it; both languages "" when unsaid
    int order = 0;                           // place on the board within its chapter
    Text title, prompt;
    std::string source;                      // the student's program, relative to the repository
    InputList inputs;                        // the book's values
    nlohmann::ordered_json variants;         // input name -> how its variant values are drawn
    std::vector<AnswerSpec> answers;
    std::map<std::string, std::vector<std::string>> options;  // choice answers: their letters
    std::vector<Text> hints;
    // The mistakes tried: every catalogue entry a switch of a mechanism makes (the reference runs it
    // where it computes that mechanism; one it never consults changes nothing), less those excluded.
    std::vector<std::string> mistakes;
    std::map<std::string, Text> mistakes_excluded;  // mistake id -> why this exercise never names it
    // Which parts feed which ("steps": {"silu": ["gate"], ...}), in the answers' order: a wrong
    // part is judged from the student's own printed values of the parts that feed it (a part
    // listed with no feeds is a first step, computed from the inputs alone).
    std::vector<std::pair<std::string, std::vector<std::string>>> steps;
    // A property every right value of a part has ("properties": {"part": {"kind": ..., arguments
    // naming inputs}}; kinds in diagnosis.hpp), said of a wrong part no mistake explains.
    std::map<std::string, nlohmann::ordered_json> properties;
    std::filesystem::path file;              // where the definition was read from
    std::shared_ptr<const ExpectedAnswers> expected;  // where its expected answers come from

    double max_score() const;
    std::string file_name() const { return std::filesystem::path(source).filename().string(); }
};

class ExerciseSet {
public:
    // Reads every data/exercises/*/*.json below `root`; a malformed file is an InputFileError
    // naming the file and field, and so is an exercise `answers` cannot answer for (by default
    // the edition's provider: the reference solutions, or data/expected/ in the student edition).
    static ExerciseSet load(const std::filesystem::path& root);
    static ExerciseSet load(const std::filesystem::path& root, std::shared_ptr<const ExpectedAnswers> answers);

    const std::vector<Exercise>& all() const { return exercises_; }
    const ExpectedAnswers& answers() const { return *answers_; }
    const Exercise* find(std::string_view id) const;
    // The exercise with that id, or an InputFileError listing the ids.
    const Exercise& at(std::string_view id) const;

    // The same set with only these chapters' exercises (all when `chapters` is empty); an
    // unknown chapter is an InputFileError listing the chapters.
    ExerciseSet only_chapters(const std::vector<std::string>& chapters) const;

    // The same set with only the picked exercises (in board order), each worth its `points` when
    // set, its parts scaled in proportion. An id of no exercise is an InputFileError naming the
    // pick's `where` and the closest id; an id picked twice or points not above 0 are too.
    struct Pick {
        std::string id;
        std::optional<double> points;
        std::string where;  // "assignment.json: exercises[2].id", "--exercises"
    };
    ExerciseSet only_exercises(const std::vector<Pick>& picks) const;

    // The program file names of every exercise loaded, picked or not (a submission's file of one
    // of these names is no misnamed file).
    const std::vector<std::string>& every_file_name() const { return every_file_name_; }

    // The chapter's title, from data/exercises/<chapter>/chapter.json.
    const Text& chapter_title(const std::string& chapter) const;

private:
    struct Chapter {
        Text title;
        int order = 0;  // place of the chapter on the board
    };
    void read_chapter(const std::filesystem::path& file);

    std::vector<Exercise> exercises_;  // by chapter order, then exercise order
    std::map<std::string, Chapter> chapters_;
    std::vector<std::string> every_file_name_;
    std::shared_ptr<const ExpectedAnswers> answers_;
};

// An assignment: which exercises count and each one's points ({"name", "exercises": [{"id",
// "points"?}]}, docs/instructors.md). The course side chooses one (checker/course/assignment.hpp);
// a student edition released with it carries it as `released_assignment`, and its board counts it.
struct Assignment {
    std::string name;
    std::vector<ExerciseSet::Pick> exercises;
};

// An assignment file; a malformed one is an InputFileError naming the file and field.
Assignment read_assignment(const std::filesystem::path& file);

// Where `release --assignment` puts the assignment in the student edition, under its root.
inline constexpr const char* released_assignment = "data/exercises/assignment.json";

}  // namespace blockcheck
