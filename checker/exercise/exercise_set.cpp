#include "checker/exercise/exercise_set.hpp"

#include "checker/common/json_exact.hpp"
#include "checker/common/json_fields.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/exercise/protocol.hpp"
#include "checker/exercise/variants.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

const Json& list_field(const Json& object, const std::string& key, const std::string& where) {
    const Json& value = required_field(object, key, where);
    if (!value.is_array()) throw InputFileError(field_path(where, key) + ": expected a list, got " + json_shown(value));
    return value;
}

// A definition object holds only the fields docs/exercise-format.md lists, besides any starting
// with `_` (the `_help` texts `new` writes): a misspelt optional field ("decimal") would otherwise
// silently take its default.
void only_known_fields(const Json& object, const std::vector<std::string>& known, const std::string& where) {
    for (auto& [key, value] : object.items()) {
        if (key.starts_with("_") || std::find(known.begin(), known.end(), key) != known.end()) continue;
        std::string message = field_path(where, key) + ": unknown field";
        if (auto near = closest_name(key, known)) message += "; did you mean \"" + *near + "\"?";
        throw InputFileError(message);
    }
}

AnswerSpec read_answer(const Json& json, const std::string& where, std::vector<std::string>& options) {
    if (!json.is_object()) throw InputFileError(where + ": expected an object, got " + json_shown(json));
    only_known_fields(json, {"name", "kind", "points", "decimals", "significant", "digits", "explain", "general", "options"},
                      where);
    AnswerSpec spec;
    spec.name = string_field(json, "name", where);
    const std::string kind = string_field(json, "kind", where);
    auto parsed = answer_kind_from_name(kind);
    if (!parsed) throw InputFileError(field_path(where, "kind") + ": unknown kind \"" + kind + "\"");
    spec.kind = *parsed;
    spec.points = json.contains("points") ? static_cast<double>(whole_number(json["points"], field_path(where, "points"), 1, 1000)) : 1.0;
    if (json.contains("decimals") && json.contains("significant"))
        throw InputFileError(where + ": give either \"decimals\" or \"significant\", not both");
    if (json.contains("digits"))
        throw InputFileError(field_path(where, "digits") + ": declare \"decimals\" (decimal places) or \"significant\" (significant digits)");
    if (json.contains("significant"))
        spec.precision = {Precision::significant, static_cast<int>(whole_number(json["significant"], field_path(where, "significant"), 1, 40))};
    else
        spec.precision = {Precision::decimals, json.contains("decimals") ? static_cast<int>(whole_number(json["decimals"], field_path(where, "decimals"), 0, 40)) : 6};
    if (json.contains("explain")) spec.explain = text_field(json, "explain", where);
    spec.general = json.contains("general") && json["general"].is_boolean() && json["general"].get<bool>();
    if (json.contains("general") && !json["general"].is_boolean())
        throw InputFileError(field_path(where, "general") + ": expected true or false, got " + json_shown(json["general"]));
    if (spec.general && spec.kind != AnswerKind::boolean && spec.kind != AnswerKind::choice)
        throw InputFileError(field_path(where, "general") + ": only a boolean or choice answer can be a general claim");
    if (json.contains("options")) {
        const Json& list = json["options"];
        if (!list.is_array() || list.empty() || !std::all_of(list.begin(), list.end(), [](const Json& o) { return o.is_string(); }))
            throw InputFileError(field_path(where, "options") + ": expected a list of option names, got " + json_shown(list));
        options = list.get<std::vector<std::string>>();
    }
    return spec;
}

// "steps": {"part": ["part feeding it", ...]}: every name an answer, each feed an answer before the part.
void read_steps(const Json& steps, const std::string& where, Exercise& e) {
    if (!steps.is_object()) throw InputFileError(where + ": expected {\"part\": [\"part feeding it\", ...]}, got " + json_shown(steps));
    auto position = [&](const std::string& name) {
        for (std::size_t i = 0; i < e.answers.size(); ++i)
            if (e.answers[i].name == name) return i;
        return e.answers.size();
    };
    for (const AnswerSpec& spec : e.answers) {
        if (!steps.contains(spec.name)) continue;
        const Json& feeds = steps[spec.name];
        if (!feeds.is_array()) throw InputFileError(where + "." + spec.name + ": expected a list of answers, got " + json_shown(feeds));
        std::vector<std::string> names;
        for (const Json& feed : feeds) {
            const std::string name = feed.is_string() ? feed.get<std::string>() : json_shown(feed);
            if (position(name) >= position(spec.name))
                throw InputFileError(where + "." + spec.name + ": \"" + name + "\" is not an answer printed before it");
            names.push_back(name);
        }
        e.steps.emplace_back(spec.name, names);
    }
    for (const auto& [name, feeds] : steps.items())
        if (position(name) == e.answers.size()) throw InputFileError(where + "." + name + ": no answer of that name");
}

// "properties": {"part": {"kind": "pair_length_kept" | "rms_one" | "kv_bytes_multiple" |
// "group_divides" | "rows_sum_to_one", argument: input name, ...}}.
void read_properties(const Json& properties, const std::string& where, Exercise& e) {
    if (!properties.is_object()) throw InputFileError(where + ": expected {\"part\": {\"kind\": ..., ...}}, got " + json_shown(properties));
    for (const auto& [part, property] : properties.items()) {
        const std::string at = where + "." + part;
        if (std::none_of(e.answers.begin(), e.answers.end(), [&](const AnswerSpec& a) { return a.name == part; }))
            throw InputFileError(at + ": no answer of that name");
        if (!property.is_object() || !property.contains("kind") || !known_property(property["kind"].get<std::string>()))
            throw InputFileError(at + ".kind: expected one of " + property_kinds());
        for (const auto& [argument, input] : property.items()) {
            if (argument == "kind") continue;
            const std::string name = input.is_string() ? input.get<std::string>() : json_shown(input);
            const bool whole = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (!whole && std::none_of(e.inputs.begin(), e.inputs.end(), [&](const auto& i) { return i.first == name; }))
                throw InputFileError(at + "." + argument + ": \"" + name + "\" is no input of this exercise");
        }
        e.properties.emplace(part, property);
    }
}

Exercise read_fields(const Json& json, const std::filesystem::path& file, const std::string& where);

// Every field is checked here, so that nothing downstream (the variants' generator, the
// comparison) meets a value it cannot handle.
Exercise read_exercise(const std::filesystem::path& file) {
    const Json json = read_json_exact(file);
    const std::string where = file.filename().string() + ":";
    try {
        return read_fields(json, file, where);
    } catch (const Json::exception& e) {  // a shape the checks did not foresee
        throw InputFileError(where + " " + e.what());
    }
}

Exercise read_fields(const Json& json, const std::filesystem::path& file, const std::string& where) {
    if (!json.is_object()) throw InputFileError(where + " expected an object, got " + json_shown(json));
    only_known_fields(json, {"id", "chapter", "kind", "order", "section", "title", "source", "prompt", "inputs", "variants",
                             "answers", "hints", "mistakes", "mistakes_excluded", "steps", "properties", "points"},
                      where);
    Exercise e;
    e.file = file;
    e.id = string_field(json, "id", where);
    if (e.id + ".json" != file.filename().string())
        throw InputFileError(field_path(where, "id") + ": \"" + e.id + "\" does not match the file name");
    e.chapter = string_field(json, "chapter", where);
    e.kind = string_field(json, "kind", where);
    if (e.kind != "exercise" && e.kind != "worked-example")
        throw InputFileError(field_path(where, "kind") + ": expected \"exercise\" or \"worked-example\"");
    // a section the same in both languages ("25.6-2", "RoPE"), or {"en", "zh"} ("KV cache")
    if (json.contains("section") && json["section"].is_object()) e.section = text_field(json, "section", where);
    else {
        const std::string section = optional_string_field(json, "section", where);
        e.section = {section, section};
    }
    if (json.contains("order")) e.order = static_cast<int>(whole_number(json["order"], field_path(where, "order"), -1000000, 1000000));
    e.title = text_field(json, "title", where);
    e.prompt = text_field(json, "prompt", where);
    e.source = string_field(json, "source", where);
    const Json& inputs = required_field(json, "inputs", where);
    if (!inputs.is_object()) throw InputFileError(field_path(where, "inputs") + ": expected {\"name\": \"value\", ...}, got " + json_shown(inputs));
    for (auto& [name, value] : inputs.items()) {
        if (!value.is_string()) throw InputFileError(field_path(where, "inputs") + "." + name + ": expected protocol text, got " + json_shown(value));
        try {
            parse_reading(value.get<std::string>());
        } catch (const ProtocolError& error) {
            throw InputFileError(field_path(where, "inputs") + "." + name + ": " + error.what());
        }
        e.inputs.emplace_back(name, value.get<std::string>());
    }
    e.variants = json.contains("variants") ? json["variants"] : Json::object();
    if (!e.variants.is_object())
        throw InputFileError(field_path(where, "variants") + ": expected {\"input\": {\"kind\": ...}, ...}, got " + json_shown(e.variants));
    for (auto& [name, spec] : e.variants.items())
        if (std::none_of(e.inputs.begin(), e.inputs.end(), [&](auto& input) { return input.first == name; }))
            throw InputFileError(field_path(where, "variants") + "." + name + ": no input of that name");
    const Json& answers = list_field(json, "answers", where);
    if (answers.empty()) throw InputFileError(field_path(where, "answers") + ": expected at least one answer");
    for (std::size_t i = 0; i < answers.size(); ++i) {
        std::vector<std::string> options;
        e.answers.push_back(read_answer(answers[i], field_path(where, fmt::format("answers[{}]", i)), options));
        if (!options.empty()) e.options[e.answers.back().name] = options;
    }
    if (json.contains("mistakes"))
        throw InputFileError(field_path(where, "mistakes") +
                             ": mistakes are no longer declared per exercise: every mistake of data/mistakes.json is tried "
                             "where the reference runs its mechanism; list one the exercise must not name under "
                             "\"mistakes_excluded\": {\"id\": {\"en\": reason, \"zh\": reason}}");
    if (json.contains("mistakes_excluded")) {
        const Json& excluded = json["mistakes_excluded"];
        const std::string at = field_path(where, "mistakes_excluded");
        if (!excluded.is_object())
            throw InputFileError(at + ": expected {\"mistake id\": {\"en\": reason, \"zh\": reason}}, got " + json_shown(excluded));
        for (const auto& [id, reason] : excluded.items()) {
            require_known_mistake(id, at);
            e.mistakes_excluded.emplace(id, text_of(reason, at + "." + id));
        }
    }
    e.mistakes = mechanism_mistakes(e.mistakes_excluded);
    if (json.contains("steps")) read_steps(json["steps"], field_path(where, "steps"), e);
    if (json.contains("properties")) read_properties(json["properties"], field_path(where, "properties"), e);
    if (json.contains("hints"))
        for (std::size_t i = 0; i < list_field(json, "hints", where).size(); ++i)
            e.hints.push_back(text_of(json["hints"][i], field_path(where, fmt::format("hints[{}]", i))));
    variant_inputs(e, 0);  // every range is checked (bounds, steps, lengths) by drawing from it once
    return e;
}

}  // namespace

std::string input_text(const InputList& inputs) {
    std::string text;
    for (const auto& [name, value] : inputs) text += name + " = " + value + "\n";
    return text;
}

double Exercise::max_score() const {
    double total = 0;
    for (const AnswerSpec& a : answers) total += a.points;
    return total;
}

ExerciseSet ExerciseSet::load(const std::filesystem::path& root) { return load(root, edition_answers(root)); }

ExerciseSet ExerciseSet::load(const std::filesystem::path& root, std::shared_ptr<const ExpectedAnswers> answers) {
    ExerciseSet set;
    set.answers_ = answers;
    const auto dir = root / "data" / "exercises";
    if (!std::filesystem::is_directory(dir)) throw InputFileError(dir.string() + ": no exercise definitions here");
    for (const auto& chapter : std::filesystem::directory_iterator(dir)) {
        if (!chapter.is_directory()) continue;
        for (const auto& file : std::filesystem::directory_iterator(chapter.path()))
            if (file.path().filename() == "chapter.json") set.read_chapter(file.path());
            else if (file.path().extension() == ".json") set.exercises_.push_back(read_exercise(file.path()));
    }
    for (Exercise& e : set.exercises_) {
        if (!set.chapters_.count(e.chapter))
            throw InputFileError(e.file.string() + ": chapter \"" + e.chapter + "\" has no chapter.json beside it");
        if (!answers->knows(e.id))
            throw InputFileError(e.file.filename().string() + ": no reference solution for \"" + e.id + "\"");
        e.expected = answers;
    }
    std::sort(set.exercises_.begin(), set.exercises_.end(), [&](const Exercise& a, const Exercise& b) {
        const int ca = set.chapters_.at(a.chapter).order, cb = set.chapters_.at(b.chapter).order;
        return std::tie(ca, a.order, a.id) < std::tie(cb, b.order, b.id);
    });
    for (std::size_t i = 1; i < set.exercises_.size(); ++i)
        if (set.exercises_[i].id == set.exercises_[i - 1].id)
            throw InputFileError(set.exercises_[i].file.string() + ": id \"" + set.exercises_[i].id + "\" used twice");
    for (const Exercise& e : set.exercises_) set.every_file_name_.push_back(e.file_name());
    return set;
}

const Exercise* ExerciseSet::find(std::string_view id) const {
    for (const Exercise& e : exercises_)
        if (e.id == id) return &e;
    return nullptr;
}

const Exercise& ExerciseSet::at(std::string_view id) const {
    if (const Exercise* e = find(id)) return *e;
    std::string ids;
    for (const Exercise& e : exercises_) ids += (ids.empty() ? "" : ", ") + e.id;
    throw InputFileError("no exercise \"" + std::string(id) + "\"; the exercises are: " + ids);
}

ExerciseSet ExerciseSet::only_chapters(const std::vector<std::string>& chapters) const {
    if (chapters.empty()) return *this;
    std::string known;
    for (const auto& [name, chapter] : chapters_) known += (known.empty() ? "" : ", ") + name;
    for (const std::string& c : chapters)
        if (!chapters_.count(c)) throw InputFileError("no chapter \"" + c + "\"; the chapters are: " + known);
    ExerciseSet subset = *this;
    std::erase_if(subset.exercises_, [&](const Exercise& e) {
        return std::find(chapters.begin(), chapters.end(), e.chapter) == chapters.end();
    });
    return subset;
}

ExerciseSet ExerciseSet::only_exercises(const std::vector<Pick>& picks) const {
    std::vector<std::string> ids;
    for (const Exercise& e : exercises_) ids.push_back(e.id);
    std::map<std::string, const Pick*> by_id;
    for (const Pick& pick : picks) {
        if (!find(pick.id)) {
            std::string message = pick.where + ": no exercise \"" + pick.id + "\"";
            if (auto near = closest_name(pick.id, ids)) message += "; did you mean \"" + *near + "\"?";
            throw InputFileError(message);
        }
        if (!by_id.emplace(pick.id, &pick).second) throw InputFileError(pick.where + ": \"" + pick.id + "\" is picked twice");
        if (pick.points && !(*pick.points > 0)) throw InputFileError(pick.where + ": points must be above 0");
    }
    ExerciseSet subset = *this;
    std::erase_if(subset.exercises_, [&](const Exercise& e) { return !by_id.count(e.id); });
    for (Exercise& e : subset.exercises_) {
        const Pick& pick = *by_id.at(e.id);
        if (!pick.points) continue;
        // part points' = part points * assigned / the exercise's own total
        const double scale = *pick.points / e.max_score();
        for (AnswerSpec& a : e.answers) a.points *= scale;
    }
    return subset;
}

void ExerciseSet::read_chapter(const std::filesystem::path& file) {
    const Json json = read_json_exact(file);
    const std::string where = file.string() + ":";
    if (!json.is_object()) throw InputFileError(where + " expected an object, got " + json_shown(json));
    only_known_fields(json, {"chapter", "order", "title"}, where);
    Chapter chapter{text_field(json, "title", where), json.value("order", 0)};
    chapters_[string_field(json, "chapter", where)] = chapter;
}

const Text& ExerciseSet::chapter_title(const std::string& chapter) const { return chapters_.at(chapter).title; }

namespace {

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

}  // namespace blockcheck
