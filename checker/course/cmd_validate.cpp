// `blockcheck validate [ID...]`: check exercises before students see them; exit 1 with one line
// a problem, naming the file and the field.
#include "checker/common/cli.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/common/files.hpp"
#include "checker/course/files.hpp"
#include "checker/course/templates.hpp"
#include "checker/course/validate.hpp"
#include "checker/exercise/mistake_catalogue.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace blockcheck {
namespace {

namespace fs = std::filesystem;

// Every definition file below data/exercises/ (not chapter.json), sorted.
std::vector<fs::path> definition_files(const fs::path& root) {
    std::vector<fs::path> files;
    const fs::path dir = root / "data" / "exercises";
    if (!fs::is_directory(dir)) throw InputFileError(dir.string() + ": no exercise definitions here");
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        if (entry.path().extension() == ".json" && entry.path().filename() != "chapter.json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

// `--mistakes-doc` and `--coverage`: docs/mistakes.md and docs/mistake-coverage.md written from the data.
int write_mistake_docs(const Context& context, bool catalogue, bool coverage) {
    if (catalogue) write_text_file(context.root / "docs" / "mistakes.md", mistakes_doc());
    if (coverage) {
        const ExerciseSet set = ExerciseSet::load(context.root);
        std::vector<const Exercise*> all;
        for (const Exercise& e : set.all()) all.push_back(&e);
        write_text_file(context.root / "docs" / "mistake-coverage.md", coverage_doc(all, ValidateSettings{}.mistake_seeds));
    }
    return 0;
}

int validate(const Context& context, const std::vector<std::string>& ids, bool record_templates) {
    const Lang lang = context.lang;
    std::vector<Problem> problems;
    for (const fs::path& file : definition_files(context.root))
        if (ids.empty() || std::find(ids.begin(), ids.end(), file.stem().string()) != ids.end())
            for (Problem& p : check_definition_text(context.root, file)) problems.push_back(std::move(p));
    std::size_t checked = 0;
    Text proof;  // what the tutor named on the programs the reference makes
    try {
        const ExerciseSet set = ExerciseSet::load(context.root);
        RunSettings run;
        run.include_dir = context.root / "chapters";
        run.cache_dir = context.root / ".blockcheck" / "cache";
        std::vector<const Exercise*> chosen;
        if (ids.empty())
            for (const Exercise& e : set.all()) chosen.push_back(&e);
        for (const std::string& id : ids) chosen.push_back(&set.at(id));
        for (const Exercise* e : chosen) {
            // --record-template: the working copy becomes the template the student edition ships.
            if (record_templates) record_template(context.root, e->chapter, e->file_name(), read_file(context.root / e->source));
            for (Problem& p : check_exercise(context.root, *e, run, ValidateSettings{})) problems.push_back(std::move(p));
            ++checked;
        }
        proof = proof_summary(chosen, ValidateSettings{}.mistake_seeds);
    } catch (const InputFileError& error) {
        // A definition that does not load: a problem of its own unless a line above names its file.
        const std::string what = error.what();
        const bool explained = std::any_of(problems.begin(), problems.end(), [&](const Problem& p) {
            return what.find(std::filesystem::path(p.file).filename().string()) != std::string::npos;
        });
        if (!explained) problems.push_back({"data/exercises", "(loading)", {what, what}});
    }
    for (const Problem& p : problems) fmt::print("{}\n", problem_line(p, lang));
    if (!proof.en.empty()) fmt::print("{}\n", proof.in(lang));
    if (problems.empty())
        fmt::print("{}\n", lang == Lang::zh ? fmt::format("{} 道题全部通过检查。", checked)
                                            : fmt::format("{} exercises valid.", checked));
    else
        fmt::print("{}\n", lang == Lang::zh ? fmt::format("发现 {} 个问题。", problems.size())
                                            : fmt::format("{} problems found.", problems.size()));
    return problems.empty() ? 0 : 1;
}

}  // namespace

void add_validate_command(CLI::App& app, Context& context) {
    auto ids = std::make_shared<std::vector<std::string>>();
    CLI::App* cmd = app.add_subcommand(
        "validate", "check exercises before students see them: references on 500 variants, template, solved program, prompts, hints");
    cmd->add_option("ids", *ids, "exercises to check (default: all)");
    auto record = std::make_shared<bool>(false);
    cmd->add_flag("--record-template", *record,
                  "first record each exercise's chapters/ program as its template (data/templates/CHAPTER.json, what "
                  "`release` ships)");
    auto docs = std::make_shared<std::pair<bool, bool>>(false, false);
    cmd->add_flag("--mistakes-doc", docs->first, "write docs/mistakes.md from data/mistakes.json instead");
    cmd->add_flag("--coverage", docs->second, "write docs/mistake-coverage.md (exercise x mistake x book/variants) instead");
    cmd->callback([&context, ids, docs, record] {
        context.run = [&context, ids, docs, record] {
            if (docs->first || docs->second) return write_mistake_docs(context, docs->first, docs->second);
            return validate(context, *ids, *record);
        };
    });
}

}  // namespace blockcheck
