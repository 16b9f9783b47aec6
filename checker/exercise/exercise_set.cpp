#include "checker/exercise/exercise_set.hpp"

#include "checker/common/json_exact.hpp"
#include "checker/common/json_fields.hpp"
#include "checker/exercise/protocol.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

AnswerSpec read_answer(const Json& json, const std::string& where, std::vector<std::string>& options) {
    AnswerSpec spec;
    spec.name = string_field(json, "name", where);
    const std::string kind = string_field(json, "kind", where);
    auto parsed = answer_kind_from_name(kind);
    if (!parsed) throw InputFileError(field_path(where, "kind") + ": unknown kind \"" + kind + "\"");
    spec.kind = *parsed;
    spec.points = json.value("points", 1.0);
    if (spec.points <= 0) throw InputFileError(field_path(where, "points") + ": must be positive");
    spec.digits = json.value("digits", 6);
    if (json.contains("explain")) spec.explain = text_field(json, "explain", where);
    if (json.contains("options")) options = json["options"].get<std::vector<std::string>>();
    return spec;
}

Exercise read_exercise(const std::filesystem::path& file) {
    const Json json = read_json_exact(file);
    const std::string where = file.filename().string() + ":";
    Exercise e;
    e.file = file;
    e.id = string_field(json, "id", where);
    if (e.id + ".json" != file.filename().string())
        throw InputFileError(field_path(where, "id") + ": \"" + e.id + "\" does not match the file name");
    e.chapter = string_field(json, "chapter", where);
    e.kind = string_field(json, "kind", where);
    if (e.kind != "exercise" && e.kind != "worked-example")
        throw InputFileError(field_path(where, "kind") + ": expected \"exercise\" or \"worked-example\"");
    e.section = json.value("section", "");
    e.order = json.value("order", 0);
    e.title = text_field(json, "title", where);
    e.prompt = text_field(json, "prompt", where);
    e.source = string_field(json, "source", where);
    for (auto& [name, value] : required_field(json, "inputs", where).items()) {
        if (!value.is_string()) throw InputFileError(field_path(where, "inputs") + "." + name + ": expected protocol text, got " + json_shown(value));
        try {
            parse_reading(value.get<std::string>());
        } catch (const ProtocolError& error) {
            throw InputFileError(field_path(where, "inputs") + "." + name + ": " + error.what());
        }
        e.inputs.emplace_back(name, value.get<std::string>());
    }
    e.variants = json.value("variants", Json::object());
    for (auto& [name, spec] : e.variants.items())
        if (std::none_of(e.inputs.begin(), e.inputs.end(), [&](auto& input) { return input.first == name; }))
            throw InputFileError(field_path(where, "variants") + "." + name + ": no input of that name");
    const Json& answers = required_field(json, "answers", where);
    for (std::size_t i = 0; i < answers.size(); ++i) {
        std::vector<std::string> options;
        e.answers.push_back(read_answer(answers[i], field_path(where, fmt::format("answers[{}]", i)), options));
        if (!options.empty()) e.options[e.answers.back().name] = options;
    }
    if (json.contains("hints"))
        for (std::size_t i = 0; i < json["hints"].size(); ++i)
            e.hints.push_back(text_of(json["hints"][i], field_path(where, fmt::format("hints[{}]", i))));
    if (!reference_solutions().count(e.id)) throw InputFileError(where + " no reference solution for \"" + e.id + "\"");
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

ExerciseSet ExerciseSet::load(const std::filesystem::path& root) {
    ExerciseSet set;
    const auto dir = root / "data" / "exercises";
    if (!std::filesystem::is_directory(dir)) throw InputFileError(dir.string() + ": no exercise definitions here");
    for (const auto& chapter : std::filesystem::directory_iterator(dir)) {
        if (!chapter.is_directory()) continue;
        for (const auto& file : std::filesystem::directory_iterator(chapter.path()))
            if (file.path().filename() == "chapter.json") set.read_chapter(file.path());
            else if (file.path().extension() == ".json") set.exercises_.push_back(read_exercise(file.path()));
    }
    for (const Exercise& e : set.exercises_)
        if (!set.chapters_.count(e.chapter))
            throw InputFileError(e.file.string() + ": chapter \"" + e.chapter + "\" has no chapter.json beside it");
    std::sort(set.exercises_.begin(), set.exercises_.end(), [&](const Exercise& a, const Exercise& b) {
        const int ca = set.chapters_.at(a.chapter).order, cb = set.chapters_.at(b.chapter).order;
        return std::tie(ca, a.order, a.id) < std::tie(cb, b.order, b.id);
    });
    for (std::size_t i = 1; i < set.exercises_.size(); ++i)
        if (set.exercises_[i].id == set.exercises_[i - 1].id)
            throw InputFileError(set.exercises_[i].file.string() + ": id \"" + set.exercises_[i].id + "\" used twice");
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

void ExerciseSet::read_chapter(const std::filesystem::path& file) {
    const Json json = read_json_exact(file);
    const std::string where = file.string() + ":";
    Chapter chapter{text_field(json, "title", where), json.value("order", 0)};
    chapters_[string_field(json, "chapter", where)] = chapter;
}

const Text& ExerciseSet::chapter_title(const std::string& chapter) const { return chapters_.at(chapter).title; }

}  // namespace blockcheck
