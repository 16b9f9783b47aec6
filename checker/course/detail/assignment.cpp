// The course side's ways of choosing exercises; the assignment file's reader is the exercise
// room's (exercise_set.cpp), for the student edition reads its released assignment too.
#include "checker/course/assignment.hpp"

namespace blockcheck {

using Json = nlohmann::ordered_json;

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
