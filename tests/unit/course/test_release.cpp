// `release` from a working copy an instructor has solved: the student edition ships each
// exercise's template from its record (data/templates/), never the working copy, names what it
// left out, describes itself in its own product list and quotes the header's scoring rule.
#include "checker/common/files.hpp"
#include "checker/course/product_list.hpp"
#include "checker/course/release.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <fstream>

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

const fs::path release_source = BLOCKCHECK_SOURCE_DIR;

// A copy of the full edition's files (data/release/product.txt), as a downloaded tree has them.
void copy_full_edition(const fs::path& to) {
    for (const fs::path& file : full_edition_files(release_source)) {
        fs::create_directories((to / file).parent_path());
        fs::copy_file(release_source / file, to / file);
    }
}

}  // namespace

TEST_CASE("release: a solved working copy ships the templates, and each file left out is named") {
    testing::TempDir dir("release");
    const fs::path tree = dir.path / "tree", out = dir.path / "edition";
    copy_full_edition(tree);
    REQUIRE(!fs::exists(tree / ".git"));
    const std::string templ = read_file(tree / "chapters/ch25/rms_norm_zero_row.cpp");
    fs::copy_file(release_source / "tests/solved/ch25/rms_norm_zero_row.cpp", tree / "chapters/ch25/rms_norm_zero_row.cpp",
                  fs::copy_options::overwrite_existing);
    std::ofstream(tree / "chapters/ch25/notes.cpp") << "// the instructor's notes\n";
    std::ofstream(tree / "chapters/gqa_long_context/gqa_groups.cpp", std::ios::app) << "// solved in class\n";

    const ExerciseSet ch25 = ExerciseSet::load(tree).only_chapters({"ch25"});
    const ReleaseSummary s = write_release(tree, ch25, out, 1);
    CHECK(s.exercises == 10);
    CHECK(read_file(out / "chapters/ch25/rms_norm_zero_row.cpp") == templ);
    for (const Exercise& e : ch25.all()) CHECK(read_file(out / e.source) == read_file(release_source / e.source));
    // The release's exercises only: nothing of the other chapter, whose solved program is not named.
    CHECK(!fs::exists(out / "chapters/gqa_long_context"));
    CHECK(!fs::exists(out / "chapters/ch25/notes.cpp"));
    REQUIRE(s.not_shipped.size() == 2);
    CHECK(s.not_shipped[0].path == "chapters/ch25/notes.cpp");
    CHECK(!s.not_shipped[0].differs);
    CHECK(s.not_shipped[1].path == "chapters/ch25/rms_norm_zero_row.cpp");
    CHECK(s.not_shipped[1].differs);
    CHECK(read_file(out / "chapters/blockcheck.hpp") == read_file(release_source / "chapters/blockcheck.hpp"));

    // Its own list names what it holds, and its script goes by the student lines.
    for (const ProductEntry& e : read_product_list(out)) {
        CAPTURE(e.path);
        CHECK(e.edition != "full");
        CHECK(e.kind != "templates");
    }
    const std::string script = read_file(out / "blockcheck");
    CHECK(script.find("\nedition=student\n") != std::string::npos);
    CHECK(script.find("packages=(\"${student_packages[@]}\")") != std::string::npos);
}

TEST_CASE("release: the student edition's README states the header's scoring rule, which every prompt repeats") {
    testing::TempDir dir("release-readme");
    const fs::path tree = dir.path / "tree", out = dir.path / "edition";
    copy_full_edition(tree);
    write_release(tree, ExerciseSet::load(tree).only_chapters({"ch25"}), out, 1);
    const std::string readme = read_file(out / "README.md");
    const std::string en = "> Scoring: each number is checked to the precision this exercise declares (decimal places, or "
                           "significant digits for small quantities), never to the digits the header prints; a value within "
                           "half a unit of the last declared digit is correct, fewer digits than declared is too_few_digits, "
                           "and only answer_decimal holds you to more.\n";
    const std::string zh = "> 评分规则：每个数按本题声明的精度检查（小数位数，或对很小的量用有效数字），与头文件打印的位数无关；"
                           "误差在声明的最后一位的半个单位以内即为正确，位数少于声明的判为 too_few_digits，只有 answer_decimal "
                           "会按写出的全部位数检查。\n";
    CHECK(readme.find(en) != std::string::npos);
    CHECK(readme.find(zh) != std::string::npos);
    CHECK(readme.find("half a unit of the last\ndecimal place it gives") == std::string::npos);
    CHECK(readme.find("<!--") == std::string::npos);
    // The prompts state the same rule (those that state one).
    const ExerciseSet all = ExerciseSet::load(tree);
    for (const Exercise& e : all.all()) {
        CAPTURE(e.id);
        const std::string& prompt = e.prompt.en;
        if (prompt.find("Scoring:") != std::string::npos) CHECK(prompt.find(en.substr(2, en.size() - 3)) != std::string::npos);
    }
}
