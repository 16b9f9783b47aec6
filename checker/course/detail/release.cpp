#include "checker/course/release.hpp"

#include "checker/common/json_exact.hpp"
#include "checker/course/files.hpp"
#include "checker/course/product_list.hpp"
#include "checker/exercise/variants.hpp"

#include <fmt/format.h>

#include <sstream>

namespace blockcheck {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

void copy_into(const fs::path& from, const fs::path& to) {
    fs::create_directories(to.parent_path());
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

// The root script as the student edition's: its package list without MPFR or the test packages,
// and the edition it goes by in data/release/product.txt.
std::string student_script(const fs::path& root) {
    std::string script = read_file(root / "blockcheck");
    auto replace_line = [&](const std::string& start, const std::string& end, const std::string& with) {
        const std::size_t from = script.find(start);
        if (from == std::string::npos) throw InputFileError((root / "blockcheck").string() + ": no " + start.substr(1) + "... line");
        script.replace(from + 1, script.find(end, from + 1) + end.size() - 1 - (from + 1), with);
    };
    replace_line("\npackages=(", ")\n", "packages=(\"${student_packages[@]}\")");
    replace_line("\nedition=", "\n", "edition=student");
    return script;
}

// The scoring rule as the header's top comment states it (which every prompt repeats): the
// comment lines from "Scoring:" to the blank comment line, English then Chinese, as README quotes.
std::string scoring_rule_quote(const fs::path& header) {
    const std::string text = read_file(header);
    const std::size_t from = text.find("// Scoring:"), to = text.find("\n//\n", from);
    if (from == std::string::npos || to == std::string::npos)
        throw InputFileError(header.string() + ": no \"// Scoring:\" paragraph in the top comment");
    // Lines joined with a space where either side is ASCII (English, or a name inside Chinese).
    std::string en, zh;
    std::istringstream lines(text.substr(from, to - from));
    for (std::string line; std::getline(lines, line);) {
        line.erase(0, 3);  // "// "
        std::string& into = line.starts_with("评分规则") || !zh.empty() ? zh : en;
        if (!into.empty() && (static_cast<unsigned char>(into.back()) < 0x80 || static_cast<unsigned char>(line.front()) < 0x80))
            into += ' ';
        into += line;
    }
    return "> " + en + "\n>\n> " + zh + "\n";
}

// The student edition's README with the scoring rule quoted at its marker line.
std::string student_readme(const fs::path& root, const fs::path& readme) {
    std::string text = read_file(root / readme);
    const std::string marker = "<!-- blockcheck release: the scoring rule of chapters/blockcheck.hpp -->\n";
    const std::size_t at = text.find(marker);
    if (at == std::string::npos) throw InputFileError(readme.string() + ": no line " + marker.substr(0, marker.size() - 1));
    return text.replace(at, marker.size(), scoring_rule_quote(root / "chapters" / "blockcheck.hpp"));
}

// data/release/product.txt as the student edition sees itself: its `both` lines as they are, and
// its `student` lines at the places they were written to (the top folder; chapters/ for the templates).
std::string student_product_list(const std::vector<ProductEntry>& entries) {
    std::string text = "# What this student edition of blockcheck is made of, written by `blockcheck release` from the\n"
                       "# full edition's list (the format is described there and in its docs/layout.md): CMakeLists.txt\n"
                       "# builds from the `sources` and `main` lines, ./blockcheck rebuilds when a `sources`, `main` or\n"
                       "# `build` path is newer than the program.\n";
    for (const ProductEntry& e : entries) {
        if (!in_edition(e, "student")) continue;
        const std::string path = e.edition == "both" ? e.path : e.kind == "templates" ? "chapters" : fs::path(e.path).filename().string();
        text += fmt::format("{:<8} {:<10} {}\n", e.edition, e.kind == "templates" ? "data" : e.kind, path);
    }
    return text;
}

// Every case of one exercise: the book's inputs, then variants 1..K; each with its mistakes' answers
// and the one-step candidates of its steps (StepCandidates).
Json exercise_cases(const Exercise& e, int variants) {
    Json file = {{"id", e.id}, {"digits", expected_digits}, {"cases", Json::array()}};
    auto add_case = [&](std::optional<std::uint64_t> seed, const InputList& inputs) {
        try {
            const ExpectedCase answers = e.expected->answers_and_mistakes(e, inputs);
            file["cases"].push_back(expected_case(seed, inputs, answers, step_candidates(e, inputs, answers.answers)));
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

ReleaseSummary write_release(const fs::path& root, const ExerciseSet& exercises, const fs::path& out, int variants) {
    if (variants < 1) throw InputFileError(fmt::format("--variants {}: give at least one variant", variants));
    require_empty(out);
    ReleaseSummary summary;
    const std::vector<ProductEntry> entries = read_product_list(root);
    std::vector<fs::path> shipped;  // what the edition takes from the working copy as it is
    for (const ProductEntry& entry : entries) {
        if (!in_edition(entry, "student") || entry.kind == "templates") continue;
        for (const fs::path& file : entry_files(root, entry)) {
            const fs::path to = entry.edition == "student" ? out / file.filename() : out / file;
            if (file == "blockcheck")
                write_text_file(to, student_script(root));
            else if (file == "data/release/product.txt")
                write_text_file(to, student_product_list(entries));
            else if (file == "data/release/README.md")
                write_text_file(to, student_readme(root, file));
            else
                copy_into(root / file, to);
            shipped.push_back(file);
            ++summary.files;
        }
    }
    fs::permissions(out / "blockcheck", fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add);
    for (const Exercise& e : exercises.all()) {
        const std::optional<std::string> text = recorded_template(root, e);
        if (!text)
            throw InputFileError(fmt::format("{}: no template of {} ({}); `blockcheck new` records one",
                                             template_record_file(e.chapter), e.id, e.file_name()));
        write_text_file(out / e.source, *text);
        ++summary.files;
    }
    summary.not_shipped = working_copy_not_shipped(root, exercises, shipped);

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
