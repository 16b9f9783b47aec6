#include "checker/exercise/expected.hpp"

#include "checker/common/json_exact.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/exercise_set.hpp"
#include "checker/exercise/protocol.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

// Answer name -> protocol text, from {"name": "text", ...}.
std::map<std::string, std::string> answer_texts(const Json& json, const std::string& where) {
    if (!json.is_object()) throw InputFileError(where + ": expected {\"answer\": \"protocol text\", ...}");
    std::map<std::string, std::string> texts;
    for (const auto& [name, text] : json.items()) {
        if (!text.is_string()) throw InputFileError(where + "." + name + ": expected protocol text");
        texts[name] = text.get<std::string>();
    }
    return texts;
}

Values values_of(const std::map<std::string, std::string>& texts) {
    Values values;
    for (const auto& [name, text] : texts) values.emplace(name, expected_value(text));
    return values;
}

// The answers `release` computed: per exercise, per case key, the answer texts.
class DataAnswers final : public ExpectedAnswers {
public:
    explicit DataAnswers(const std::filesystem::path& root);

    bool knows(const std::string& id) const override { return cases_.count(id) > 0; }
    Values answers(const Exercise& exercise, const InputList& inputs) const override {
        return answers_and_mistakes(exercise, inputs).answers;
    }
    ExpectedCase answers_and_mistakes(const Exercise& exercise, const InputList& inputs) const override;
    std::optional<ExpectedCase> answers_from_given(const Exercise& exercise, const InputList& inputs,
                                                   const Values& given) const override;
    std::optional<std::vector<std::uint64_t>> carried_variants() const override { return variants_; }

private:
    void read_exercise_file(const std::filesystem::path& file);

    using Texts = std::map<std::string, std::string>;  // answer name -> protocol text
    struct CaseTexts {
        Texts answers;
        std::map<std::string, Texts> mistakes;  // mistake id -> answers
        std::map<std::string, std::map<std::string, Texts>> steps;  // step -> mistake id -> answers (StepCandidates)
    };
    const CaseTexts& case_texts(const Exercise& exercise, const InputList& inputs) const;
    std::map<std::string, std::map<std::string, CaseTexts>> cases_;  // id -> key -> answers
    std::vector<std::uint64_t> variants_;
};

DataAnswers::DataAnswers(const std::filesystem::path& root) {
    const auto dir = root / "data" / "expected";
    const Json edition = read_json_exact(dir / "edition.json");
    if (!edition.contains("variants") || !edition["variants"].is_array())
        throw InputFileError((dir / "edition.json").string() + ".variants: expected a list of seeds");
    for (const Json& seed : edition["variants"]) {
        if (!seed.is_number_unsigned())
            throw InputFileError((dir / "edition.json").string() + ".variants: expected whole seeds");
        variants_.push_back(seed.get<std::uint64_t>());
    }
    for (const auto& chapter : std::filesystem::directory_iterator(dir))
        if (chapter.is_directory())
            for (const auto& file : std::filesystem::directory_iterator(chapter.path()))
                if (file.path().extension() == ".json") read_exercise_file(file.path());
}

void DataAnswers::read_exercise_file(const std::filesystem::path& file) {
    const Json json = read_json_exact(file);
    const std::string where = file.string();
    if (!json.contains("id") || !json["id"].is_string()) throw InputFileError(where + ".id: expected the exercise id");
    if (!json.contains("cases") || !json["cases"].is_array())
        throw InputFileError(where + ".cases: expected a list of cases");
    auto& cases = cases_[json["id"].get<std::string>()];
    for (std::size_t i = 0; i < json["cases"].size(); ++i) {
        const Json& c = json["cases"][i];
        const std::string at = fmt::format("{}.cases[{}]", where, i);
        if (!c.contains("inputs") || !c["inputs"].is_object() || !c.contains("answers") || !c["answers"].is_object())
            throw InputFileError(at + ": expected \"inputs\" and \"answers\" objects");
        InputList inputs;
        for (const auto& [name, text] : c["inputs"].items()) {
            if (!text.is_string()) throw InputFileError(at + ".inputs." + name + ": expected protocol text");
            inputs.emplace_back(name, text.get<std::string>());
        }
        CaseTexts& texts = cases[case_key(inputs)];
        texts.answers = answer_texts(c["answers"], at + ".answers");
        if (c.contains("mistakes")) {
            if (!c["mistakes"].is_object()) throw InputFileError(at + ".mistakes: expected {\"mistake id\": {answers}}");
            for (const auto& [id, answers] : c["mistakes"].items())
                texts.mistakes[id] = answer_texts(answers, at + ".mistakes." + id);
        }
        if (c.contains("steps")) {
            const std::string shape = ": expected {\"step\": {\"mistake id\": {answers}}}";
            if (!c["steps"].is_object()) throw InputFileError(at + ".steps" + shape);
            for (const auto& [step, mistakes] : c["steps"].items()) {
                if (!mistakes.is_object()) throw InputFileError(at + ".steps." + step + shape);
                for (const auto& [id, answers] : mistakes.items())
                    texts.steps[step][id] = answer_texts(answers, at + ".steps." + step + "." + id);
            }
        }
    }
}

const DataAnswers::CaseTexts& DataAnswers::case_texts(const Exercise& exercise, const InputList& inputs) const {
    auto exercise_cases = cases_.find(exercise.id);
    if (exercise_cases == cases_.end())
        throw std::runtime_error("this edition has no expected answers for " + exercise.id);
    auto found = exercise_cases->second.find(case_key(inputs));
    if (found == exercise_cases->second.end())
        throw std::runtime_error("this edition has no expected answers for these inputs of " + exercise.id);
    return found->second;
}

ExpectedCase DataAnswers::answers_and_mistakes(const Exercise& exercise, const InputList& inputs) const {
    const CaseTexts& found = case_texts(exercise, inputs);
    ExpectedCase answers{values_of(found.answers), {}};
    for (const auto& [id, texts] : found.mistakes) answers.mistakes.emplace(id, values_of(texts));
    return answers;
}

// True when every value of `given` is the one `want` has for its part, at the part's precision.
bool all_fit(const Exercise& exercise, const Values& given, const Values& want) {
    for (const auto& [name, value] : given) {
        auto spec = std::find_if(exercise.answers.begin(), exercise.answers.end(), [&](const AnswerSpec& a) { return a.name == name; });
        auto wanted = want.find(name);
        if (spec == exercise.answers.end() || wanted == want.end()) return false;
        const std::string text = expected_text(value);
        if (!within_tolerance(*spec, parse_reading(text), wanted->second) && text != expected_text(wanted->second)) return false;
    }
    return true;
}

// The answers with `chain` (a carried slip's answers from its step on) in place of the right ones.
Values overlaid(Values answers, const std::map<std::string, std::string>& chain) {
    for (const auto& [name, text] : chain) answers.insert_or_assign(name, expected_value(text));
    return answers;
}

// A first step from the inputs alone; a step whose feeds are all right from the one-step slips
// release computed (each mistake's value there); a step whose feeds one carried slip gives, from
// that slip's later values (so that it follows, or not). Other values of the student's own need
// the references.
std::optional<ExpectedCase> DataAnswers::answers_from_given(const Exercise& exercise, const InputList& inputs,
                                                            const Values& given) const {
    ExpectedCase answers = answers_and_mistakes(exercise, inputs);
    if (given.empty()) return answers;
    const CaseTexts& found = case_texts(exercise, inputs);
    if (!all_fit(exercise, given, answers.answers)) {
        for (const auto& [step, slips] : found.steps)
            for (const auto& [id, chain] : slips)
                if (const Values from = overlaid(answers.answers, chain); all_fit(exercise, given, from))
                    return ExpectedCase{from, {}};
        return std::nullopt;
    }
    answers.mistakes.clear();
    for (const auto& [step, feeds] : exercise.steps) {
        const bool these = feeds.size() == given.size() &&
                           std::all_of(feeds.begin(), feeds.end(), [&](const std::string& f) { return given.count(f) > 0; });
        auto slips = found.steps.find(step);
        if (!these || slips == found.steps.end()) continue;
        for (const auto& [id, chain] : slips->second) answers.mistakes[id].emplace(step, expected_value(chain.at(step)));
    }
    return answers;
}

}  // namespace

std::string mistake_pair_key(const std::string& a, const std::string& b) { return a + "+" + b; }

bool is_mistake_pair(const std::string& key) { return key.find('+') != std::string::npos; }

std::map<std::string, Values> ExpectedAnswers::pair_mistakes(const Exercise& exercise, const InputList& inputs,
                                                             const std::vector<std::pair<std::string, std::string>>& pairs) const {
    std::map<std::string, Values> made;
    const ExpectedCase carried = answers_and_mistakes(exercise, inputs);
    for (const auto& [a, b] : pairs)
        if (auto it = carried.mistakes.find(mistake_pair_key(a, b)); it != carried.mistakes.end()) made.insert(*it);
    return made;
}

std::string expected_text(const Value& value) { return format_value(value, expected_digits); }

Value expected_value(const std::string& text) { return to_value(parse_reading(text)); }

std::string case_key(const InputList& inputs) {
    std::vector<std::string> lines;
    for (const auto& [name, text] : inputs) lines.push_back(name + " = " + expected_text(expected_value(text)));
    std::sort(lines.begin(), lines.end());
    std::string key;
    for (const std::string& line : lines) key += line + "\n";
    return key;
}

StepCandidates step_candidates(const Exercise& exercise, const InputList& inputs, const Values& right) {
    StepCandidates steps;
    for (const auto& [step, feeds] : exercise.steps) {
        Values given;
        for (const std::string& f : feeds)
            if (right.count(f)) given.emplace(f, right.at(f));
        if (feeds.empty() || given.size() != feeds.size() || !right.count(step)) continue;
        const std::optional<ExpectedCase> at_step = exercise.expected->answers_from_given(exercise, inputs, given);
        if (!at_step) continue;
        for (const auto& [id, values] : at_step->mistakes) {
            auto value = values.find(step);
            if (value == values.end() || same_answer(value->second, right.at(step))) continue;  // changes nothing here
            // every later part from the slipped value, as the student computes on from it
            const std::optional<ExpectedCase> later = exercise.expected->answers_from_given(exercise, inputs, {{step, value->second}});
            if (!later) continue;
            Values chain;
            bool after = false;
            for (const AnswerSpec& a : exercise.answers) {
                after = after || a.name == step;
                if (after && later->answers.count(a.name)) chain.emplace(a.name, later->answers.at(a.name));
            }
            chain.insert_or_assign(step, value->second);
            steps[step].emplace(id, std::move(chain));
        }
    }
    return steps;
}

nlohmann::ordered_json expected_case(std::optional<std::uint64_t> variant, const InputList& inputs,
                                     const ExpectedCase& answers, const StepCandidates& steps) {
    auto texts = [](const Values& values) {
        Json json = Json::object();
        for (const auto& [name, value] : values) json[name] = expected_text(value);
        return json;
    };
    Json c = Json::object();
    if (variant) c["variant"] = *variant;
    c["inputs"] = Json::object();
    for (const auto& [name, text] : inputs) c["inputs"][name] = text;
    c["answers"] = texts(answers.answers);
    if (!answers.mistakes.empty()) {
        c["mistakes"] = Json::object();
        for (const auto& [id, values] : answers.mistakes) c["mistakes"][id] = texts(values);
    }
    if (!steps.empty()) {
        c["steps"] = Json::object();
        for (const auto& [step, slips] : steps)
            for (const auto& [id, values] : slips) c["steps"][step][id] = texts(values);
    }
    return c;
}

std::shared_ptr<const ExpectedAnswers> answers_from_data(const std::filesystem::path& root) {
    return std::make_shared<DataAnswers>(root);
}

void require_carried_variant(const ExpectedAnswers& answers, std::uint64_t seed, Lang lang) {
    const auto carried = answers.carried_variants();
    if (!carried || std::find(carried->begin(), carried->end(), seed) != carried->end()) return;
    std::string list;
    if (!carried->empty() && carried->back() - carried->front() + 1 == carried->size())
        list = fmt::format("{}-{}", carried->front(), carried->back());
    else
        list = fmt::format("{}", fmt::join(*carried, ", "));
    throw InputFileError(lang == Lang::zh
        ? fmt::format("变体 {}：本版只带有变体 {}；老师评分时使用其他变体", seed, list)
        : fmt::format("variant {}: this edition carries variants {}; your instructor grades with others", seed, list));
}

}  // namespace blockcheck
