#include "checker/course/authoring.hpp"

#include "checker/common/json_exact.hpp"
#include "checker/course/files.hpp"
#include "checker/course/templates.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

namespace blockcheck {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr const char* registry_file = "solutions/reference_solutions.cpp";
constexpr const char* declarations_marker = "// blockcheck new: declarations above this line";
constexpr const char* entries_marker = "        // blockcheck new: entries above this line";

// Lower-case letters, digits and underscores, starting with a letter: a C++ name and a file name.
bool is_identifier(const std::string& name) {
    return !name.empty() && name.front() >= 'a' && name.front() <= 'z' &&
           std::all_of(name.begin(), name.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

// The next free place on the board within a folder of definitions (or of chapters).
int next_order(const fs::path& dir, const std::string& skip_name) {
    int order = 0;
    if (!fs::is_directory(dir)) return 1;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().extension() == ".json" && entry.path().filename() != skip_name)
            order = std::max(order, read_json_exact(entry.path()).value("order", 0));
    return order + 1;
}

Json chapter_json(const fs::path& root, const std::string& chapter) {
    int order = 0;
    for (const auto& dir : fs::directory_iterator(root / "data" / "exercises"))
        if (fs::exists(dir.path() / "chapter.json"))
            order = std::max(order, read_json_exact(dir.path() / "chapter.json").value("order", 0));
    return {{"_help", "One chapter of the board: its folder name, its place among the chapters, its title."},
            {"chapter", chapter},
            {"order", order + 1},
            {"title", {{"en", "Chapter " + chapter}, {"zh", "章节 " + chapter}}}};
}

Json definition_json(const NewExercise& s, int order) {
    return {
        {"_help",
         {{"about", "The exercise definition; every field is described in docs/exercise-format.md. Fields starting "
                    "with '_' are ignored."},
          {"id", "the exercise's name: the file names and the reference function are called so"},
          {"chapter", "the folder under data/exercises/ and chapters/"},
          {"kind", "\"exercise\" or \"worked-example\""},
          {"order", "place on the board within the chapter"},
          {"section", "optional: where the book has it, e.g. \"25.6-2\" (leave the field out when the book has none)"},
          {"title", "one line, in English and Chinese"},
          {"source", "the student's program, relative to the repository"},
          {"prompt", "the task in both languages; it must name every answer"},
          {"inputs", "name -> protocol text (number, [vector], [[matrix]], true/false): the book's values"},
          {"variants", "name -> how a variant draws the input: {\"number\": {min, max, step}}, "
                       "{\"integer\": {min, max, multiple_of}}, {\"vector\": {length, min, max, step, nonzero, distinct}}, "
                       "{\"matrix\": {rows, cols, min, max, step}}, {\"one_of\": [values]}; a length may be [shortest, longest]"},
          {"answers", "what the program prints: name, kind (number, integer, vector, matrix, boolean, choice, angle), "
                      "points, decimals (decimal places a number must give) or significant (significant digits), explain (for booleans and choices), options, general"},
          {"mistakes_excluded", "optional: {id: {en, zh}}: catalogue mistakes this exercise never names, each with its reason; "
                                "every other mistake of data/mistakes.json is tried where the reference runs its mechanism"},
          {"steps", "optional: {part: [parts feeding it]}: a wrong part is judged from the student's own values of its feeds "
                    "(the reference takes them through in.given_or)"},
          {"properties", "optional: {part: {kind, arguments}}: a property every right value has (pair_length_kept, rms_one, "
                         "kv_bytes_multiple, group_divides, rows_sum_to_one), said of a wrong part no mistake explains"},
          {"hints", "shown one at a time by `blockcheck hint`, each in both languages"},
          {"points", "the total: the sum of the answers' points"}}},
        {"id", s.id},
        {"chapter", s.chapter},
        {"kind", s.kind},
        {"order", order},
        {"title", {{"en", "Double a number"}, {"zh", "把一个数加倍"}}},
        {"source", "chapters/" + s.chapter + "/" + s.id + ".cpp"},
        {"prompt",
         {{"en", "Print:\n  doubled — number: twice x."}, {"zh", "输出：\n  doubled —— 数：x 的两倍。"}}},
        {"inputs", {{"x", "1.5"}}},
        {"variants", {{"x", {{"number", {{"min", "-4"}, {"max", "4"}, {"step", "0.25"}}}}}}},
        {"answers", Json::array({{{"name", "doubled"}, {"kind", "number"}, {"points", 1}, {"decimals", 6}}})},
        {"hints", Json::array({{{"en", "Add x to itself."}, {"zh", "把 x 与自己相加。"}}})},
        {"points", 1},
    };
}

std::string template_cpp(const NewExercise& s) {
    return fmt::format(R"(// {id}: the student's program (the template; `./blockcheck show {id}` prints the task).
#include "blockcheck.hpp"
using namespace bc;

int main() {{
    double x = input_number("x");

    // answer("doubled", ...);
}}
)", fmt::arg("id", s.id));
}

std::string reference_cpp(const NewExercise& s) {
    return fmt::format(R"(// {id}: the reference solution, computed at 50 digits (through the block where it applies).
#include "solutions/exercise.hpp"

namespace blockcheck {{

Values {id}(const Inputs& in) {{
    const Real& x = in.number("x");
    return {{
        {{"doubled", Real(2) * x}},
    }};
}}

}}  // namespace blockcheck
)", fmt::arg("id", s.id));
}

std::string solved_cpp(const NewExercise& s) {
    return fmt::format(R"(// Solved: {id}, as a student would write it.
#include "blockcheck.hpp"
using namespace bc;

int main() {{
    double x = input_number("x");
    answer("doubled", 2 * x);
}}
)", fmt::arg("id", s.id));
}

// The registry with the new reference declared and entered at the markers.
std::string registered(const std::string& registry, const std::string& id) {
    const std::size_t declarations = registry.find(declarations_marker);
    const std::size_t entries = registry.find(entries_marker);
    if (declarations == std::string::npos || entries == std::string::npos)
        throw InputFileError(std::string(registry_file) + ": the `blockcheck new` marker lines are missing");
    std::string out = registry;
    out.insert(entries, fmt::format("        {{\"{0}\", {0}}},\n", id));
    out.insert(declarations, fmt::format("Values {}(const Inputs& in);\n", id));
    return out;
}

}  // namespace

std::vector<std::string> write_new_exercise(const fs::path& root, const NewExercise& s) {
    if (!is_identifier(s.id)) throw InputFileError("new: \"" + s.id + "\" is not a valid id (lower-case letters, digits, _)");
    if (!is_identifier(s.chapter))
        throw InputFileError("new: --chapter \"" + s.chapter + "\" is not a valid chapter name (lower-case letters, digits, _)");
    if (s.kind != "exercise" && s.kind != "worked-example")
        throw InputFileError("new: --kind \"" + s.kind + "\": expected exercise or worked-example");
    const fs::path exercises = root / "data" / "exercises";
    for (const auto& dir : fs::directory_iterator(exercises))
        if (fs::exists(dir.path() / (s.id + ".json")))
            throw InputFileError("new: " + fs::relative(dir.path() / (s.id + ".json"), root).generic_string() +
                                 ": the id \"" + s.id + "\" is in use");
    const std::map<std::string, std::string> files = {
        {"chapters/" + s.chapter + "/" + s.id + ".cpp", template_cpp(s)},
        {"solutions/" + s.chapter + "/" + s.id + ".cpp", reference_cpp(s)},
        {"tests/solved/" + s.chapter + "/" + s.id + ".cpp", solved_cpp(s)},
    };
    for (const auto& [path, text] : files)
        if (fs::exists(root / path)) throw InputFileError("new: " + path + ": exists already");
    const std::string registry = registered(read_file(root / registry_file), s.id);

    std::vector<std::string> written;
    const fs::path chapter_dir = exercises / s.chapter;
    if (!fs::exists(chapter_dir / "chapter.json")) {
        write_text_file(chapter_dir / "chapter.json", chapter_json(root, s.chapter).dump(2) + "\n");
        written.push_back("data/exercises/" + s.chapter + "/chapter.json");
    }
    const std::string definition = "data/exercises/" + s.chapter + "/" + s.id + ".json";
    write_text_file(root / definition, definition_json(s, next_order(chapter_dir, "chapter.json")).dump(2) + "\n");
    written.push_back(definition);
    for (const auto& [path, text] : files) {
        write_text_file(root / path, text);
        written.push_back(path);
    }
    record_template(root, s.chapter, s.id + ".cpp", template_cpp(s));
    written.push_back(template_record_file(s.chapter));
    write_text_file(root / registry_file, registry);
    written.push_back(registry_file);
    return written;
}

}  // namespace blockcheck
