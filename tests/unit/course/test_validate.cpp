// `validate` on a copy of one chapter: the shipped exercise passes, and each injected fault is
// caught with a line naming the file and the field.
#include "checker/common/files.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/course/templates.hpp"
#include "checker/course/validate.hpp"
#include "checker/exercise/expected.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <fstream>

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

// A copy of the repository's student side and solved programs, where faults can be injected.
struct Copy {
    testing::TempDir dir{"validate"};
    fs::path root = dir.path;

    Copy() {
        const fs::path source = BLOCKCHECK_SOURCE_DIR;
        for (const char* part : {"data/exercises", "data/templates", "chapters", "tests/solved"}) {
            fs::create_directories(root / part);
            fs::copy(source / part, root / part, fs::copy_options::recursive);
        }
    }
    fs::path definition(const std::string& id) const { return root / "data/exercises/ch25" / (id + ".json"); }
    nlohmann::ordered_json read(const std::string& id) const { return read_json_exact(definition(id)); }
    void write(const std::string& id, const nlohmann::ordered_json& json) const { std::ofstream(definition(id)) << json.dump(2); }

    // Every problem `validate rms_norm_zero_row` finds: the text checks, then the rest.
    std::vector<std::string> problems(const std::string& id) const {
        std::vector<std::string> lines;
        for (const Problem& p : check_definition_text(root, definition(id))) lines.push_back(problem_line(p, Lang::en));
        const ExerciseSet set = ExerciseSet::load(root);
        RunSettings run;
        run.include_dir = root / "chapters";
        run.cache_dir = fs::temp_directory_path() / "blockcheck-validate-cache";  // by content: shared by the tests
        // The solved program on the book's inputs and two variants, not 50: each is a program run,
        // and `blockcheck validate` itself runs the whole sweep.
        ValidateSettings settings;
        settings.solved_seeds = 2;
        for (const Problem& p : check_exercise(root, set.at(id), run, settings))
            lines.push_back(problem_line(p, Lang::en));
        return lines;
    }
};

std::string joined(const std::vector<std::string>& lines) {
    std::string all;
    for (const std::string& line : lines) all += line + "\n";
    return all;
}

}  // namespace

TEST_CASE("validate: the shipped rms_norm_zero_row has no problem") {
    Copy copy;
    CHECK(joined(copy.problems("rms_norm_zero_row")) == "");
}

TEST_CASE("validate: a missing Chinese hint is named by file and field") {
    Copy copy;
    auto json = copy.read("rms_norm_zero_row");
    json["hints"][1].erase("zh");
    copy.write("rms_norm_zero_row", json);
    const auto lines = check_definition_text(copy.root, copy.definition("rms_norm_zero_row"));
    REQUIRE(lines.size() == 1);
    CHECK(problem_line(lines[0], Lang::en) == "data/exercises/ch25/rms_norm_zero_row.json: hints[1].zh: missing or empty");
}

TEST_CASE("validate: a prompt that does not name an answer, and points that do not add up") {
    Copy copy;
    auto json = copy.read("rms_norm_zero_row");
    json["prompt"]["zh"] = "缩放系数取一。";
    json["points"] = 4;
    copy.write("rms_norm_zero_row", json);
    const std::string all = joined(copy.problems("rms_norm_zero_row"));
    CHECK(all.find("rms_norm_zero_row.json: prompt.zh: does not mention the answer 'mean_square'") != std::string::npos);
    CHECK(all.find("rms_norm_zero_row.json: points: the total 4 is not the sum of the answers' points (5)") != std::string::npos);
}

TEST_CASE("validate: a variant range that makes an answer undefined") {
    Copy copy;
    auto json = copy.read("rms_norm_zero_row");
    json["variants"]["row"]["vector"]["nonzero"] = false;  // [0, 0] can be drawn: RMSNorm 0/0
    json["variants"]["row"]["vector"]["min"] = "-1";
    json["variants"]["row"]["vector"]["max"] = "1";
    copy.write("rms_norm_zero_row", json);
    const std::string all = joined(copy.problems("rms_norm_zero_row"));
    CHECK(all.find("rms_norm_zero_row.json: answers[2] (rms_norm): on variant ") != std::string::npos);
    CHECK(all.find("row = [0, 0]") != std::string::npos);
    CHECK(all.find("undefined, though defined on the book's inputs") != std::string::npos);
}

TEST_CASE("validate: variant ranges that mostly repeat the book's inputs") {
    Copy copy;
    auto json = copy.read("rms_norm_zero_row");
    json["variants"]["row"] = {{"one_of", {"[0, 2]", "[0, 2]", "[0, 2]", "[2, 0]"}}};
    copy.write("rms_norm_zero_row", json);
    const std::string all = joined(copy.problems("rms_norm_zero_row"));
    CHECK(all.find("rms_norm_zero_row.json: variants: ") != std::string::npos);
    CHECK(all.find("of 500 variant seeds repeat the book's inputs (at most 5% may)") != std::string::npos);
}

TEST_CASE("validate: a template that compiles to a correct answer, and a solved program that is wrong") {
    Copy copy;
    const std::string solved = read_file(copy.root / "tests/solved/ch25/rms_norm_zero_row.cpp");
    // The working copy solved is no problem: the record is what the student edition ships.
    std::ofstream(copy.root / "chapters/ch25/rms_norm_zero_row.cpp") << solved;
    CHECK(joined(copy.problems("rms_norm_zero_row")).find("template") == std::string::npos);
    record_template(copy.root, "ch25", "rms_norm_zero_row.cpp", solved);
    std::ofstream(copy.root / "tests/solved/ch25/rms_norm_zero_row.cpp") << R"(#include "blockcheck.hpp"
int main() { bc::answer("mean_square", 2.0); }
)";
    const std::string all = joined(copy.problems("rms_norm_zero_row"));
    CHECK(all.find("data/templates/ch25.json: templates.rms_norm_zero_row.cpp: the template should answer nothing "
                   "(not_done), but it answers: mean_square (correct), root_mean_square (correct)") != std::string::npos);
    CHECK(all.find("tests/solved/ch25/rms_norm_zero_row.cpp: (program): the solved program does not get full marks "
                   "on the book's inputs: root_mean_square (missing)") != std::string::npos);
}

TEST_CASE("validate: a solved program over 1 MiB is refused as grade refuses it (validate judges on grade's road)") {
    Copy copy;
    std::ofstream(copy.root / "tests/solved/ch25/rms_norm_zero_row.cpp", std::ios::app)
        << std::string(std::size_t{1} << 20, '/') << "\n";  // one comment line: compiles, and is still no program
    const std::string all = joined(copy.problems("rms_norm_zero_row"));
    CHECK(all.find("tests/solved/ch25/rms_norm_zero_row.cpp: (program): the solved program does not get full marks "
                   "on the book's inputs: does not compile: the source is larger than 1 MiB") != std::string::npos);
}

TEST_CASE("validate: an exercise without a recorded template") {
    Copy copy;
    const fs::path record = copy.root / "data/templates/ch25.json";
    auto json = read_json_exact(record);
    json["templates"].erase("rms_norm_zero_row.cpp");
    std::ofstream(record) << json.dump(2);
    const std::string all = joined(copy.problems("rms_norm_zero_row"));
    CHECK(all.find("data/templates/ch25.json: templates.rms_norm_zero_row.cpp: no template of rms_norm_zero_row "
                   "(release ships it; `blockcheck new` records one)") != std::string::npos);
}

TEST_CASE("validate: mistakes are not declared per exercise; an exclusion names a catalogue id and a reason") {
    Copy copy;
    auto json = copy.read("rms_norm_zero_row");
    json["mistakes"] = {"mean_subtracted"};
    copy.write("rms_norm_zero_row", json);
    CHECK_THROWS_WITH_AS(ExerciseSet::load(copy.root), doctest::Contains("mistakes: mistakes are no longer declared per exercise"),
                         InputFileError);
    json.erase("mistakes");
    json["mistakes_excluded"] = {{"sum_of_squares", {{"en", "x"}, {"zh", "x"}}}};
    copy.write("rms_norm_zero_row", json);
    CHECK_THROWS_WITH_AS(ExerciseSet::load(copy.root), doctest::Contains("unknown mistake \"sum_of_squares\""), InputFileError);
}

TEST_CASE("validate: every mistake the reference makes is named on its own answers; an excluded one is not tried") {
    Copy copy;
    auto json = copy.read("rms_norm_zero_row");
    json["mistakes_excluded"]["sum_not_mean"] = {{"en", "the row's width is 1 in the book"}, {"zh", "书中行宽为 1"}};
    copy.write("rms_norm_zero_row", json);
    const std::string problems = joined(copy.problems("rms_norm_zero_row"));
    CAPTURE(problems);
    CHECK(problems.find(".json: mistakes.") == std::string::npos);  // every mistake still made is named
    CHECK(problems.find("shows 2 mistakes of its mechanisms") != std::string::npos);  // and too few are left
    const ExerciseSet set = ExerciseSet::load(copy.root);
    const Exercise& e = set.at("rms_norm_zero_row");
    CHECK(std::find(e.mistakes.begin(), e.mistakes.end(), "sum_not_mean") == e.mistakes.end());
    CHECK(std::find(e.mistakes.begin(), e.mistakes.end(), "root_omitted") != e.mistakes.end());
    const std::string doc = coverage_doc({&e}, 3);
    CHECK(doc.find("Excluded `sum_not_mean`: the row's width is 1 in the book") != std::string::npos);
    CHECK(doc.find("| `root_omitted` | yes |") != std::string::npos);
    CHECK(doc.find("| `sum_not_mean`") == std::string::npos);
}

TEST_CASE("validate: a mistake the book's inputs hide but a variant shows is fine") {
    Copy copy;
    auto json = copy.read("rms_norm_zero_row");
    json["inputs"]["row"] = "[-2, 2]";  // mean 0 here; the variants' rows are not
    copy.write("rms_norm_zero_row", json);
    CHECK(joined(copy.problems("rms_norm_zero_row")).find("mistakes") == std::string::npos);
}
