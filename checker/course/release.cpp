#include "checker/course/release.hpp"

#include "checker/common/json_exact.hpp"
#include "checker/course/files.hpp"
#include "checker/exercise/variants.hpp"

#include <fmt/format.h>

#include <fstream>

namespace blockcheck {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// The one file of the student-side rooms that calls the reference solutions.
constexpr const char* reference_provider = "checker/exercise/expected_reference.cpp";

// Copies a file or a folder's files (recursively), counting them.
std::size_t copy_tree(const fs::path& from, const fs::path& to) {
    if (fs::is_regular_file(from)) {
        fs::create_directories(to.parent_path());
        fs::copy_file(from, to, fs::copy_options::overwrite_existing);
        return 1;
    }
    std::size_t n = 0;
    for (const auto& entry : fs::recursive_directory_iterator(from))
        if (entry.is_regular_file()) n += copy_tree(entry.path(), to / fs::relative(entry.path(), from));
    return n;
}

// The root script with the student edition's package list: no MPFR, no test packages.
std::string student_script(const fs::path& root) {
    std::string script = read_file(root / "blockcheck");
    const std::string marker = "\npackages=(";
    const std::size_t start = script.find(marker);
    if (start == std::string::npos) throw InputFileError((root / "blockcheck").string() + ": no packages=(...) line");
    const std::size_t end = script.find(")\n", start);
    script.replace(start + 1, end + 1 - (start + 1), "packages=(\"${student_packages[@]}\")");
    return script;
}

// Every case of one exercise: the book's inputs, then variants 1..K.
Json exercise_cases(const Exercise& e, int variants) {
    Json file = {{"id", e.id}, {"digits", expected_digits}, {"cases", Json::array()}};
    auto add_case = [&](std::optional<std::uint64_t> seed, const InputList& inputs) {
        try {
            file["cases"].push_back(expected_case(seed, inputs, e.expected->answers_and_mistakes(e, inputs)));
        } catch (const InputFileError&) {
            throw;
        } catch (const std::exception& error) {
            throw InputFileError(fmt::format("{}: the reference solution fails on {}: {}", e.id,
                                             seed ? fmt::format("variant {}", *seed) : "the book's inputs", error.what()));
        }
    };
    add_case(std::nullopt, e.inputs);
    for (int seed = 1; seed <= variants; ++seed)
        add_case(static_cast<std::uint64_t>(seed), variant_inputs(e, static_cast<std::uint64_t>(seed)));
    return file;
}

void require_empty(const fs::path& out) {
    if (fs::exists(out) && !(fs::is_directory(out) && fs::is_empty(out)))
        throw InputFileError(out.string() + ": exists and is not empty; give a new folder for the student edition");
}

}  // namespace

const std::vector<std::string>& release_copied_paths() {
    static const std::vector<std::string> paths = {
        "chapters", "data/exercises", "data/mistakes.json", "checker/common", "checker/run", "checker/exercise", "checker/student",
        "checker/main.cpp", ".gitignore"};
    return paths;
}

ReleaseSummary write_release(const fs::path& root, const ExerciseSet& exercises, const fs::path& out, int variants) {
    if (variants < 1) throw InputFileError(fmt::format("--variants {}: give at least one variant", variants));
    require_empty(out);
    ReleaseSummary summary;
    for (const std::string& path : release_copied_paths()) summary.files += copy_tree(root / path, out / path);
    fs::remove(out / reference_provider);
    --summary.files;
    const fs::path templates = root / "data" / "release";
    for (const char* name : {"CMakeLists.txt", "README.md"}) summary.files += copy_tree(templates / name, out / name);
    write_text_file(out / "blockcheck", student_script(root));
    fs::permissions(out / "blockcheck", fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add);
    ++summary.files;

    Json edition = {{"_help", "Written by `blockcheck release`: the expected answers of this student edition, "
                              "computed by the reference solutions at 50 significant digits."},
                    {"digits", expected_digits}, {"variants", Json::array()}};
    for (int seed = 1; seed <= variants; ++seed) edition["variants"].push_back(seed);
    write_text_file(out / "data/expected/edition.json", edition.dump(2) + "\n");
    ++summary.files;
    for (const Exercise& e : exercises.all()) {
        write_text_file(out / "data/expected" / e.chapter / (e.id + ".json"), exercise_cases(e, variants).dump(2) + "\n");
        ++summary.files;
        ++summary.exercises;
        summary.cases += 1 + static_cast<std::size_t>(variants);
    }
    return summary;
}

}  // namespace blockcheck
