#include "checker/course/assignment.hpp"

#include "checker/common/json_exact.hpp"
#include "checker/common/json_fields.hpp"

#include <fmt/format.h>

namespace blockcheck {

namespace {

using Json = nlohmann::ordered_json;

// A positive number of points, at most 10000 ("2", "2.5").
double points_of(const Json& value, const std::string& where) {
    if (!value.is_number() && !value.is_string()) throw InputFileError(where + ": expected a number of points, got " + json_shown(value));
    double points = 0;
    try {
        points = std::stod(decimal_text(value, where));
    } catch (const std::invalid_argument&) {
        throw InputFileError(where + ": expected a number of points, got " + json_shown(value));
    }
    if (!(points > 0) || points > 10000) throw InputFileError(where + ": points must be above 0 and at most 10000, got " + json_shown(value));
    return points;
}

}  // namespace

Assignment read_assignment(const std::filesystem::path& file) {
    const Json json = read_json_exact(file);
    const std::string where = file.string() + ":";
    if (!json.is_object()) throw InputFileError(where + " expected an object {\"name\", \"exercises\"}, got " + json_shown(json));
    reject_unknown_fields(json, {"name", "exercises", "_help"}, where);
    Assignment a;
    a.name = string_field(json, "name", where);
    const Json& list = required_field(json, "exercises", where);
    const std::string list_where = field_path(where, "exercises");
    if (!list.is_array() || list.empty())
        throw InputFileError(list_where + ": expected a non-empty list of {\"id\", \"points\"?}, got " + json_shown(list));
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string item = fmt::format("{}[{}]", list_where, i);
        if (!list[i].is_object()) throw InputFileError(item + ": expected an object {\"id\", \"points\"?}, got " + json_shown(list[i]));
        reject_unknown_fields(list[i], {"id", "points"}, item);
        ExerciseSet::Pick pick{string_field(list[i], "id", item), std::nullopt, field_path(item, "id")};
        if (list[i].contains("points")) pick.points = points_of(list[i]["points"], field_path(item, "points"));
        a.exercises.push_back(std::move(pick));
    }
    return a;
}

Assignment assignment_from_list(const std::string& ids) {
    Assignment a{"exercises", {}};
    std::size_t start = 0;
    while (start <= ids.size()) {
        std::size_t end = ids.find(',', start);
        if (end == std::string::npos) end = ids.size();
        std::string id = ids.substr(start, end - start);
        id.erase(0, id.find_first_not_of(' '));
        id.erase(id.find_last_not_of(' ') + 1);
        if (id.empty()) throw InputFileError("--exercises " + ids + ": an empty name in the list (give ids separated by commas)");
        a.exercises.push_back({id, std::nullopt, "--exercises"});
        start = end + 1;
    }
    return a;
}

std::string assignment_json(const Assignment& assignment) {
    Json exercises = Json::array();
    for (const ExerciseSet::Pick& p : assignment.exercises) {
        Json e = {{"id", p.id}};
        if (p.points) e["points"] = *p.points;
        exercises.push_back(e);
    }
    return Json{{"name", assignment.name}, {"exercises", exercises}}.dump(2) + "\n";
}

void add_exercise_choice(CLI::App* cmd, ExerciseChoice& choice) {
    cmd->add_option("--chapter", choice.chapters, "only this chapter's exercises (repeatable; default: all)");
    cmd->add_option("--assignment", choice.assignment_file,
                    "only the exercises of this assignment file, at its points (docs/instructors.md)");
    cmd->add_option("--exercises", choice.exercises, "only these exercises, by id, separated by commas (a,b,c)");
}

std::optional<Assignment> chosen_assignment(const ExerciseChoice& choice) {
    const int ways = !choice.chapters.empty() + !choice.assignment_file.empty() + !choice.exercises.empty();
    if (ways > 1) throw InputFileError("give one of --chapter, --assignment and --exercises, not several: they choose the same thing");
    if (!choice.assignment_file.empty()) return read_assignment(choice.assignment_file);
    if (!choice.exercises.empty()) return assignment_from_list(choice.exercises);
    return std::nullopt;
}

ExerciseSet chosen_exercises(const ExerciseSet& all, const ExerciseChoice& choice) {
    if (const std::optional<Assignment> a = chosen_assignment(choice)) return all.only_exercises(a->exercises);
    return all.only_chapters(choice.chapters);
}

}  // namespace blockcheck
