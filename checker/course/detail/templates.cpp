#include "checker/course/templates.hpp"

#include "checker/common/json_exact.hpp"
#include "checker/course/files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <set>

namespace blockcheck {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr const char* record_help =
    "The templates of this chapter's exercises, as the student edition ships them in chapters/ "
    "(`blockcheck release`): file name -> the program's text. Written by `blockcheck new`, checked by "
    "`blockcheck validate` (each compiles and answers nothing); edit a template here. chapters/ is the working copy.";

// The record's "templates" object (empty when the file does not exist).
Json read_record(const fs::path& root, const std::string& chapter) {
    const fs::path file = root / template_record_file(chapter);
    if (!fs::exists(file)) return Json::object();
    const Json record = read_json_exact(file);
    if (!record.is_object() || !record.contains("templates") || !record["templates"].is_object())
        throw InputFileError(template_record_file(chapter) + ": templates: expected an object of file name -> program text");
    for (const auto& [name, text] : record["templates"].items())
        if (!text.is_string())
            throw InputFileError(fmt::format("{}: templates.{}: expected the program's text", template_record_file(chapter), name));
    return record["templates"];
}

}  // namespace

std::string template_record_file(const std::string& chapter) { return "data/templates/" + chapter + ".json"; }

std::optional<std::string> recorded_template(const fs::path& root, const Exercise& e) {
    const Json templates = read_record(root, e.chapter);
    if (!templates.contains(e.file_name())) return std::nullopt;
    return templates[e.file_name()].get<std::string>();
}

void record_template(const fs::path& root, const std::string& chapter, const std::string& file_name, const std::string& text) {
    Json templates = read_record(root, chapter);
    templates[file_name] = text;
    Json sorted = Json::object();  // file names in order, so that a new one lands in its place
    std::set<std::string> names;
    for (const auto& [name, value] : templates.items()) names.insert(name);
    for (const std::string& name : names) sorted[name] = templates[name];
    const Json record = {{"_help", record_help}, {"templates", sorted}};
    write_text_file(root / template_record_file(chapter), record.dump(2) + "\n");
}

TemplateProgram::TemplateProgram(const std::string& file_name, const std::string& text) {
    std::string pattern = (fs::temp_directory_path() / "blockcheck-template-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a folder in " + fs::temp_directory_path().string());
    folder_ = pattern;
    path_ = folder_ / file_name;
    write_text_file(path_, text);
}

TemplateProgram::~TemplateProgram() {
    std::error_code ignored;
    fs::remove_all(folder_, ignored);
}

std::vector<WorkingCopyFile> working_copy_not_shipped(const fs::path& root, const ExerciseSet& exercises,
                                                     const std::vector<fs::path>& shipped) {
    std::vector<WorkingCopyFile> out;
    if (!fs::is_directory(root / "chapters")) return out;
    for (const auto& entry : fs::recursive_directory_iterator(root / "chapters")) {
        if (!entry.is_regular_file()) continue;
        const fs::path relative = fs::relative(entry.path(), root);
        if (std::find(shipped.begin(), shipped.end(), relative) != shipped.end()) continue;
        // chapters/CHAPTER/FILE is an exercise's program when its chapter's record has FILE.
        const std::string chapter = relative.parent_path().filename().string();
        const Json templates = relative.parent_path().parent_path() == "chapters" ? read_record(root, chapter) : Json::object();
        const std::string name = relative.filename().string();
        if (!templates.contains(name)) {
            out.push_back({relative.generic_string(), false});
            continue;
        }
        const bool released = std::any_of(exercises.all().begin(), exercises.all().end(),
                                          [&](const Exercise& e) { return fs::path(e.source) == relative; });
        if (released && templates[name].get<std::string>() != read_file(entry.path()))
            out.push_back({relative.generic_string(), true});
    }
    std::sort(out.begin(), out.end(), [](const WorkingCopyFile& a, const WorkingCopyFile& b) { return a.path < b.path; });
    return out;
}

}  // namespace blockcheck
