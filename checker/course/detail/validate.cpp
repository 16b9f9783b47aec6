#include "checker/course/validate.hpp"

#include "checker/common/json_exact.hpp"
#include "checker/course/mistake_programs.hpp"
#include "checker/course/templates.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/expected.hpp"
#include "checker/exercise/variants.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>

namespace blockcheck {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

std::string relative_to(const fs::path& root, const fs::path& file) {
    return fs::relative(file, root).generic_string();
}

bool has_text(const Json& object, const std::string& key) {
    return object.is_object() && object.contains(key) && object[key].is_string() && !object[key].get<std::string>().empty();
}

// Both languages of a bilingual field: a problem for each one missing or empty.
void require_both(const Json& object, const std::string& field, const std::string& file, std::vector<Problem>& out) {
    for (const char* lang : {"en", "zh"})
        if (!has_text(object, lang))
            out.push_back({file, field + "." + lang, {"missing or empty", "缺失或为空"}});
}

std::string seed_name(std::optional<std::uint64_t> seed) {
    return seed ? fmt::format("variant {}", *seed) : "the book's inputs";
}
std::string seed_name_zh(std::optional<std::uint64_t> seed) {
    return seed ? fmt::format("变体 {}", *seed) : "书中的输入";
}

// "row = [0, 2]; zero_row = [0, 0]".
std::string inputs_inline(const InputList& inputs) {
    std::string text;
    for (const auto& [name, value] : inputs) text += (text.empty() ? "" : "; ") + name + " = " + value;
    return text;
}

// The reference's answers on one case, each defined (where the book's are), finite and of its kind.
void check_reference_case(const Exercise& e, std::optional<std::uint64_t> seed, const InputList& inputs,
                          const Values* book, const std::string& file, std::vector<Problem>& out,
                          std::vector<bool>& reported) {
    Values answers;
    try {
        answers = e.expected->answers(e, inputs);
    } catch (const std::exception& error) {
        out.push_back({file, seed ? "variants" : "inputs",
                       {fmt::format("the reference solution fails on {}: {}", seed_name(seed), error.what()),
                        fmt::format("参考解答在{}上出错：{}", seed_name_zh(seed), error.what())}});
        return;
    }
    for (std::size_t i = 0; i < e.answers.size(); ++i) {
        if (reported[i]) continue;
        const AnswerSpec& spec = e.answers[i];
        const std::string field = fmt::format("answers[{}] ({})", i, spec.name);
        auto it = answers.find(spec.name);
        std::optional<Text> fault;
        if (it == answers.end())
            fault = Text{"the reference solution gives no value", "参考解答没有给出值"};
        else if (auto why = reference_fault(spec, it->second))
            fault = why;
        else if (book && std::holds_alternative<Undefined>(it->second) && book->count(spec.name) &&
                 !std::holds_alternative<Undefined>(book->at(spec.name)))
            fault = Text{"undefined, though defined on the book's inputs: narrow the variant ranges",
                         "没有定义，而在书中的输入上有定义：请收窄变体的取值范围"};
        else if (book && spec.general && book->count(spec.name) && expected_text(it->second) != expected_text(book->at(spec.name)))
            fault = Text{"a general claim, yet its value differs from the book's: it must hold whatever the inputs",
                         "这是一般性结论，其值却与书中的不同：它应当与输入无关"};
        if (!fault) continue;
        reported[i] = true;  // one line an answer, at its first failing case
        out.push_back({file, field,
                       {fmt::format("on {} ({}): {}", seed_name(seed), inputs_inline(inputs), fault->en),
                        fmt::format("在{}（{}）上：{}", seed_name_zh(seed), inputs_inline(inputs), fault->zh)}});
    }
}

void check_references(const Exercise& e, const ValidateSettings& settings, const std::string& file,
                      std::vector<Problem>& out) {
    std::vector<bool> reported(e.answers.size(), false);
    check_reference_case(e, std::nullopt, e.inputs, nullptr, file, out, reported);
    Values book;
    try {
        book = e.expected->answers(e, e.inputs);
    } catch (const std::exception&) {
        return;  // reported above
    }
    const std::string book_key = case_key(e.inputs);
    int repeats = 0;
    for (int s = 1; s <= settings.reference_seeds; ++s) {
        const auto seed = static_cast<std::uint64_t>(s);
        const InputList inputs = variant_inputs(e, seed);
        repeats += case_key(inputs) == book_key;
        check_reference_case(e, seed, inputs, &book, file, out, reported);
    }
    // An exercise without inputs (a choice question) has nothing to vary.
    if (!e.inputs.empty() && repeats > settings.max_repeat_share * settings.reference_seeds)
        out.push_back({file, "variants",
                       {fmt::format("{} of {} variant seeds repeat the book's inputs (at most {:.0f}% may): widen the ranges",
                                    repeats, settings.reference_seeds, 100 * settings.max_repeat_share),
                        fmt::format("{} 个变体种子（共 {} 个）与书中的输入相同（至多允许 {:.0f}%）：请放宽取值范围",
                                    repeats, settings.reference_seeds, 100 * settings.max_repeat_share)}});
}

// The answers of mistake `id` (any of its keys: "pi_truncated/3.14"), or nullptr.
const Values* mistaken_answers(const ExpectedCase& answers, const std::string& id) {
    for (const auto& [key, values] : answers.mistakes)
        if (mistake_id(key) == id) return &values;
    return nullptr;
}

// True when the mistake's answers differ from the right ones somewhere.
bool changes_an_answer(const ExpectedCase& answers, const std::string& id) {
    for (const auto& [key, values] : answers.mistakes)
        if (mistake_id(key) == id && !same_answers(values, answers.answers)) return true;
    return false;
}

// An exercise with numeric answers runs at least `least` mechanisms' mistakes that show on its
// cases (a generic one, a sign or a factor, says nothing of what the exercise teaches).
void check_mechanism_mistakes(const Exercise& e, const std::string& file, int seeds, std::vector<Problem>& out) {
    constexpr std::size_t least = 3;
    const bool numeric = std::any_of(e.answers.begin(), e.answers.end(), [](const AnswerSpec& a) {
        return a.kind != AnswerKind::boolean && a.kind != AnswerKind::choice;
    });
    const MistakeCoverage coverage = mistake_coverage(e, seeds);
    const auto count = static_cast<std::size_t>(std::count_if(coverage.rows.begin(), coverage.rows.end(),
                                                              [](const auto& row) { return row.book || !row.variants.empty(); }));
    if (numeric && count < least)
        out.push_back({file, "mistakes_excluded",
                       {fmt::format("{} shows {} mistakes of its mechanisms on its cases; an exercise with numeric answers "
                                    "shows at least {}: compute its answers through the mechanisms' shared functions, "
                                    "whose switches make the mistakes (data/mistakes.json)", e.id, count, least),
                        fmt::format("{} 在其输入上只显示 {} 个与其机制相关的错误；有数值答案的练习至少要有 {} 个："
                                    "请通过各机制的共享函数计算答案，由其开关制造错误（见 data/mistakes.json）",
                                    e.id, count, least)}});
}

// An input's number on one case, or nullopt.
std::optional<double> number_input(const InputList& inputs, const std::string& name) {
    for (const auto& [n, value] : inputs)
        if (n == name) try {
                return std::stod(value);
            } catch (const std::exception&) {
                return std::nullopt;
            }
    return std::nullopt;
}

// The rows of a matrix input: the number of top-level '[' after the first.
std::size_t matrix_rows(const InputList& inputs, const std::string& name) {
    for (const auto& [n, value] : inputs)
        if (n == name) return static_cast<std::size_t>(std::max<long>(0, std::count(value.begin(), value.end(), '[') - 1));
    return 0;
}

// The variants exercise what the exercise teaches, so that no mistake a student can make is
// invisible to grading: an exercise on grouped heads draws, on the book's inputs or one of the
// first `seeds` variants, kv_heads >= 2 with at least 2 query heads a group (a head mapping is
// tested); a block draws at least two positions (RoPE turns something).
void check_mechanisms_drawn(const Exercise& e, const std::string& file, int seeds, std::vector<Problem>& out) {
    const bool gqa = number_input(e.inputs, "query_heads") && number_input(e.inputs, "kv_heads");
    const bool block = number_input(e.inputs, "rope_theta") && matrix_rows(e.inputs, "x") > 0;
    bool grouped = false, turned = false;
    for (int s = 0; s <= (e.variants.empty() ? 0 : seeds); ++s) {
        const InputList inputs = s ? variant_inputs(e, std::uint64_t(s)) : e.inputs;
        const double q = number_input(inputs, "query_heads").value_or(0), kv = number_input(inputs, "kv_heads").value_or(0);
        grouped = grouped || (kv >= 2 && q >= 2 * kv);
        turned = turned || matrix_rows(inputs, "x") >= 2;
    }
    if (gqa && !grouped)
        out.push_back({file, "variants",
                       {fmt::format("neither the book's inputs nor the first {} variants draw kv_heads >= 2 with at least "
                                    "2 query heads a group: a wrong head mapping would never lose a point",
                                    seeds),
                        fmt::format("书中的输入和前 {} 个变体都没有 kv_heads >= 2 且每组至少 2 个查询头的情形：头的对应关系出错也不会扣分",
                                    seeds)}});
    if (block && !turned)
        out.push_back({file, "variants",
                       {"no case has two positions: RoPE never turns anything", "没有任何情形包含两个位置：RoPE 从未转动任何东西"}});
}

// The parts a result got wrong, "name (verdict)", for a message.
std::string failing_parts(const ExerciseResult& r) {
    std::string parts;
    for (const PartResult& p : r.parts)
        if (p.verdict != Verdict::correct)
            parts += fmt::format("{}{} ({})", parts.empty() ? "" : ", ", p.name, verdict_name(p.verdict));
    return parts;
}

// The template as the student edition ships it: its record (data/templates/CHAPTER.json), which
// must compile and answer nothing.
void check_template(const fs::path& root, const Exercise& e, const RunSettings& run, std::vector<Problem>& out) {
    const std::string record = template_record_file(e.chapter);
    const std::optional<std::string> text = recorded_template(root, e);
    if (!text) {
        out.push_back({record, "templates." + e.file_name(),
                       {"no template of " + e.id + " (release ships it; `blockcheck new` records one)",
                        e.id + " 没有模板（release 发布的就是它；`blockcheck new` 会记录）"}});
        return;
    }
    const TemplateProgram program(e.file_name(), *text);
    const ExerciseResult r = judge_program(e, {program.path(), {}, e.inputs, std::nullopt, std::nullopt}, run, {});
    const std::string field = "templates." + e.file_name();
    if (r.whole_program_verdict() == Verdict::compile_error)
        out.push_back({record, field, {"the template does not compile: " + r.note.en, "模板无法编译：" + r.note.en}});
    else if (r.status != "not_done") {
        std::string given;
        for (const PartResult& p : r.parts)
            if (p.verdict != Verdict::missing) given += fmt::format("{}{} ({})", given.empty() ? "" : ", ", p.name, verdict_name(p.verdict));
        out.push_back({record, field,
                       {"the template should answer nothing (not_done), but it answers: " + given,
                        "模板不应给出任何答案（not_done），但它给出了：" + given}});
    }
}

void check_solved(const fs::path& root, const Exercise& e, const RunSettings& run, const ValidateSettings& settings,
                  std::vector<Problem>& out) {
    const fs::path source = root / "tests" / "solved" / e.chapter / e.file_name();
    const std::string file = relative_to(root, source);
    if (!fs::exists(source)) {
        out.push_back({file, "(file)", {"no solved program for " + e.id, e.id + " 没有写好的程序"}});
        return;
    }
    for (int s = 0; s <= settings.solved_seeds; ++s) {
        const std::optional<std::uint64_t> seed = s ? std::optional<std::uint64_t>(s) : std::nullopt;
        const ExerciseResult r =
            judge_program(e, {source, {}, seed ? variant_inputs(e, *seed) : e.inputs, seed, std::nullopt}, run, {});
        // an honest program in double is exact to double rounding and is told no mistake
        std::string told;
        for (const PartResult& p : r.parts)
            if (p.diagnosis || p.inexact)
                told += fmt::format("{}{} ({})", told.empty() ? "" : ", ", p.name, p.diagnosis ? p.diagnosis->id : "inexact");
        if (r.status == "done" && r.score == r.max_score && told.empty()) continue;
        const std::string why = r.whole_program_verdict() ? whole_program_label(*r.whole_program_verdict(), Lang::en) + ": " + r.note.en
                                : told.empty()            ? failing_parts(r)
                                                          : "full marks, but told " + told;
        out.push_back({file, "(program)",
                       {fmt::format("the solved program does not get full marks on {}: {}", seed_name(seed), why),
                        fmt::format("写好的程序在{}上没有拿到满分：{}", seed_name_zh(seed), why)}});
        return;
    }
}

// Every student-style program of tests/mistakes/ for this exercise gets exactly its diagnosis.
void check_mistake_programs(const fs::path& root, const Exercise& e, const RunSettings& run, std::vector<Problem>& out) {
    const fs::path scratch = run.cache_dir / "mistake-programs" / e.id;
    for (const MistakeProgram& p : mistake_programs(root)) {
        if (p.exercise != e.id) continue;
        std::vector<std::string> faults;
        try {
            faults = mistake_program_faults(root, e, p, run, scratch);
        } catch (const InputFileError& error) {
            faults = {error.what()};
        }
        for (const std::string& fault : faults)
            out.push_back({relative_to(root, p.file), "(program)",
                           {"does not get exactly its diagnosis: " + fault, "没有恰好得到它的诊断：" + fault}});
    }
}

}  // namespace

std::vector<Problem> check_definition_text(const fs::path& root, const fs::path& path) {
    std::vector<Problem> out;
    const std::string file = relative_to(root, path);
    Json json;
    try {
        json = read_json_exact(path);
    } catch (const InputFileError& error) {
        out.push_back({file, "(file)", {error.what(), error.what()}});
        return out;
    }
    for (const char* field : {"title", "prompt"}) require_both(json.value(field, Json()), field, file, out);
    const Json answers = json.value("answers", Json::array());
    double total = 0;
    for (std::size_t i = 0; i < answers.size(); ++i) {
        const std::string name = answers[i].value("name", "");
        total += answers[i].value("points", 1.0);
        for (const char* lang : {"en", "zh"})
            if (has_text(json.value("prompt", Json()), lang) &&
                json["prompt"][lang].get<std::string>().find(name) == std::string::npos)
                out.push_back({file, fmt::format("prompt.{}", lang),
                               {fmt::format("does not mention the answer '{}'", name),
                                fmt::format("没有提到答案 '{}'", name)}});
    }
    const Json hints = json.value("hints", Json::array());
    if (hints.empty()) out.push_back({file, "hints", {"no hints", "没有提示"}});
    for (std::size_t i = 0; i < hints.size(); ++i) require_both(hints[i], fmt::format("hints[{}]", i), file, out);
    if (json.contains("points") && (!json["points"].is_number() || json["points"].get<double>() != total))
        out.push_back({file, "points",
                       {fmt::format("the total {} is not the sum of the answers' points ({})", json["points"].dump(), total),
                        fmt::format("总分 {} 不等于各答案分数之和（{}）", json["points"].dump(), total)}});
    return out;
}

std::vector<Problem> check_exercise(const fs::path& root, const Exercise& e, const RunSettings& run,
                                    const ValidateSettings& settings) {
    std::vector<Problem> out;
    check_references(e, settings, relative_to(root, e.file), out);
    check_mistake_proof(e, relative_to(root, e.file), settings.mistake_seeds, out);
    check_model_proof(e, relative_to(root, e.file), settings.mistake_seeds, out);
    check_mechanism_mistakes(e, relative_to(root, e.file), settings.mistake_seeds, out);
    check_mechanisms_drawn(e, relative_to(root, e.file), settings.mistake_seeds, out);
    check_template(root, e, run, out);
    check_solved(root, e, run, settings, out);
    check_mistake_programs(root, e, run, out);
    return out;
}

std::string problem_line(const Problem& p, Lang lang) { return fmt::format("{}: {}: {}", p.file, p.field, p.message.in(lang)); }

}  // namespace blockcheck

namespace blockcheck {
namespace {

// The case's answers of every mistake the reference makes, by id (its first key).
std::map<std::string, Values> by_id(const Exercise& e, const ExpectedCase& answers) {
    std::map<std::string, Values> out;
    for (const std::string& id : e.mistakes)
        if (const Values* v = mistaken_answers(answers, id)) out.emplace(id, *v);
    return out;
}

}  // namespace

MistakeCoverage mistake_coverage(const Exercise& e, int seeds) {
    static std::mutex mutex;
    static std::map<std::pair<std::string, int>, MistakeCoverage> known;  // per exercise file and seeds
    std::string what = e.file.string() + "\n" + e.id + "\n" + e.variants.dump() + "\n";  // an exercise edited in a test is another
    for (const std::string& id : e.mistakes) what += id + ",";
    const std::pair<std::string, int> key{what, seeds};
    {
        const std::lock_guard lock(mutex);
        if (auto it = known.find(key); it != known.end()) return it->second;
    }
    MistakeCoverage coverage;
    std::map<std::string, MistakeCoverage::Row> rows;  // the mistakes the reference makes on some case
    std::map<std::pair<std::string, std::string>, bool> told_apart;
    for (int s = 0; s <= (e.variants.empty() ? 0 : seeds); ++s) {
        ExpectedCase answers;
        try {
            answers = e.expected->answers_and_mistakes(e, s ? variant_inputs(e, std::uint64_t(s)) : e.inputs);
        } catch (const std::exception&) {
            continue;  // reported by check_references
        }
        const std::map<std::string, Values> made = by_id(e, answers);
        for (const auto& [id, values] : made) {
            MistakeCoverage::Row& row = rows.try_emplace(id, MistakeCoverage::Row{id, false, {}}).first->second;
            if (!changes_an_answer(answers, id)) continue;
            if (s == 0) row.book = true;
            else row.variants.push_back(s);
        }
        for (const auto& [a, va] : made)
            for (const auto& [b, vb] : made)
                if (a < b && (!same_answers(va, vb) || !same_answers(vb, va))) told_apart[{a, b}] = true;
    }
    for (const std::string& id : e.mistakes)  // in the catalogue's order
        if (rows.count(id)) coverage.rows.push_back(rows.at(id));
    for (const auto& a : coverage.rows)
        for (const auto& b : coverage.rows)
            if (a.id < b.id && (a.book || !a.variants.empty()) && (b.book || !b.variants.empty()) && !told_apart[{a.id, b.id}])
                coverage.identical.emplace_back(a.id, b.id);
    const std::lock_guard lock(mutex);
    return known.emplace(key, coverage).first->second;
}

}  // namespace blockcheck
