#include "checker/exercise/grading.hpp"

#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/variants.hpp"


#include <fmt/format.h>

#include <regex>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <csignal>
#include <cstring>

namespace blockcheck {
namespace {

void settle_status(ExerciseResult& r) {
    bool all_correct = true, none_given = r.issues.empty();
    r.score = r.max_score = 0;
    for (const PartResult& p : r.parts) {
        r.score += p.score;
        r.max_score += p.max_score;
        all_correct = all_correct && (p.verdict == Verdict::correct || p.verdict == Verdict::grader_fault);
        none_given = none_given && p.verdict == Verdict::missing;
    }
    r.status = all_correct ? "done" : none_given ? "not_done" : "failing";
}

// A printed value with its spaces taken out, so "[1, 2]" and "[1,2]" compare alike.
std::string normalized_printed(const std::string& text) {
    std::string out;
    for (char c : text)
        if (c != ' ' && c != '\t') out += c;
    return out;
}

// "right on the book's inputs, wrong on variant 7 (x = ...): run `./blockcheck run ID --variant 7`",
// with what that variant's grading diagnosed of each part, if anything.
Text variant_failed_note(const std::string& id, const ExerciseResult& variant, const InputList& inputs,
                         const std::vector<const PartResult*>& wrong) {
    std::string shown;
    for (const auto& [name, value] : inputs) shown += (shown.empty() ? "" : "; ") + name + " = " + value;
    if (shown.size() > 300) shown = shown.substr(0, 300) + " ...";
    const std::string seed = variant.variant ? std::to_string(*variant.variant) : "?";
    Text note{fmt::format("right on the book's inputs, wrong on these: variant {} ({}); `./blockcheck run {} --variant {}` "
                          "runs them",
                          seed, shown, id, seed),
              fmt::format("在书中的输入上正确，在这些输入上错误：变体 {}（{}）；用 `./blockcheck run {} --variant {}` 运行它们",
                          seed, shown, id, seed)};
    for (const PartResult* part : wrong) {
        std::vector<Diagnosis> said = part->diagnoses;
        if (part->diagnosis) said.insert(said.begin(), *part->diagnosis);
        for (const Diagnosis& d : said)
            note = {note.en + "; on that variant, " + part->name + ": " + d.message.en,
                    note.zh + "；在该变体上，" + part->name + "：" + d.message.zh};
    }
    return note;
}

}  // namespace

// The last lines of a crashed program's stderr, for the message.
static std::string tail_lines(const std::string& text, std::size_t lines = 5) {
    std::size_t pos = text.size();
    for (std::size_t n = 0; pos > 0 && n <= lines; --pos)
        if (text[pos - 1] == '\n' && pos != text.size()) ++n;
    // each line made printable on its own, so the line breaks stay real ones
    std::string tail, rest = text.substr(pos);
    for (std::size_t start = 0; start < rest.size() && tail.size() < 600;) {
        std::size_t stop = std::min(rest.find('\n', start), rest.size());
        tail += (tail.empty() ? "" : "\n") + printable(std::string_view(rest).substr(start, stop - start), 300);
        start = stop + 1;
    }
    return tail;
}

Text describe_end(const RunResult& run, const Limits& limits) {
    const std::string err = run.err.empty() ? "" : "\n" + tail_lines(run.err);
    if (run.status == RunStatus::signaled && run.signal == SIGSYS)  // the jail's seccomp filter
        return {"stopped by the sandbox: it made a forbidden system call (ptrace, or reading another process's memory)",
                "被沙箱终止：程序使用了被禁止的系统调用（ptrace，或读写其他进程的内存）"};
    switch (run.status) {
        case RunStatus::timed_out:
            // the limits, never the time measured: a result repeats byte for byte on a loaded machine
            return {fmt::format("stopped at the time limit ({} s CPU, {} s wall): an endless loop, or waiting for input?",
                                limits.cpu_seconds, limits.wall_seconds),
                    fmt::format("达到时间限制（CPU {} 秒，实际 {} 秒）被终止：是死循环，还是在等待输入？", limits.cpu_seconds,
                                limits.wall_seconds)};
        case RunStatus::output_limit:
            return {fmt::format("printed more than {} bytes and was stopped", limits.output_bytes),
                    fmt::format("输出超过 {} 字节，已被终止", limits.output_bytes)};
        case RunStatus::signaled:
            return {fmt::format("crashed with signal {} ({}){}", run.signal, strsignal(run.signal), err),
                    fmt::format("程序崩溃，信号 {}（{}）{}", run.signal, strsignal(run.signal), err)};
        case RunStatus::failed_to_start:
            return {"could not start: " + run.error, "无法启动：" + run.error};
        case RunStatus::exited:
            return {fmt::format("exited with status {}{}", run.exit_code, err),
                    fmt::format("程序以状态 {} 退出{}", run.exit_code, err)};
    }
    return {};
}

Verdict verdict_of_end(RunStatus status) {
    switch (status) {
        case RunStatus::timed_out: return Verdict::timed_out;
        case RunStatus::output_limit: return Verdict::output_limit;
        case RunStatus::failed_to_start: return Verdict::grader_fault;
        default: return Verdict::crashed;
    }
}

const PartResult* ExerciseResult::first_failing_part() const {
    for (const PartResult& p : parts)
        if (p.verdict != Verdict::correct && p.verdict != Verdict::grader_fault) return &p;
    return nullptr;
}

std::optional<Verdict> ExerciseResult::whole_program_verdict() const {
    if (parts.empty()) return std::nullopt;
    const Verdict v = parts.front().verdict;
    if (std::any_of(parts.begin(), parts.end(), [&](const PartResult& p) { return p.verdict != v; })) return std::nullopt;
    const bool whole = v == Verdict::compile_error || v == Verdict::crashed || v == Verdict::timed_out ||
                       v == Verdict::output_limit || (v == Verdict::grader_fault && !note.en.empty());
    return whole ? std::optional(v) : std::nullopt;
}

std::string whole_program_label(Verdict verdict, Lang lang) {
    switch (verdict) {
        case Verdict::compile_error: return std::string(tr(lang, "does not compile", "无法编译"));
        case Verdict::crashed: return std::string(tr(lang, "crashed", "程序崩溃"));
        case Verdict::timed_out: return std::string(tr(lang, "ran out of time", "超时"));
        case Verdict::output_limit: return std::string(tr(lang, "printed too much", "输出过多"));
        case Verdict::grader_fault: return std::string(tr(lang, "grader fault (costs no points)", "评分程序故障（不扣分）"));
        default: return std::string(verdict_name(verdict));
    }
}

nlohmann::ordered_json seed_json(std::uint64_t seed) { return std::to_string(seed); }

std::uint64_t seed_from_json(const nlohmann::json& seed) {
    if (seed.is_number_unsigned()) return seed.get<std::uint64_t>();
    if (seed.is_number_integer() && seed.get<std::int64_t>() >= 0) return static_cast<std::uint64_t>(seed.get<std::int64_t>());
    if (seed.is_string()) {
        const std::string& text = seed.get_ref<const std::string&>();
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (!text.empty() && error == std::errc{} && end == text.data() + text.size()) return value;
    }
    throw std::invalid_argument("a variant seed is a string of decimal digits below 2^64, not " + seed.dump());
}

Values expected_answers(const Exercise& exercise, const InputList& inputs) {
    return exercise.expected->answers(exercise, inputs);
}

ExpectedCase expected_answers_and_mistakes(const Exercise& exercise, const InputList& inputs) {
    return exercise.expected->answers_and_mistakes(exercise, inputs);
}

// Levenshtein distance, for "did you mean".
static std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::optional<std::string> closest_name(std::string_view name, const std::vector<std::string>& names) {
    std::optional<std::string> best;
    std::size_t best_distance = std::max<std::size_t>(2, name.size() / 3) + 1;
    bool best_contains = false;  // at the same distance, a name holding the misspelt one wins: up -> w_up, not q
    for (const std::string& candidate : names) {
        // the distance is at least the lengths' difference: a far longer name is never near (and not
        // measured: a submission's 255-byte names cost nothing)
        const std::size_t gap = name.size() > candidate.size() ? name.size() - candidate.size() : candidate.size() - name.size();
        if (gap > best_distance) continue;
        const std::size_t d = edit_distance(name, candidate);
        const bool contains = candidate.find(name) != std::string::npos;
        if (d < best_distance || (best && d == best_distance && contains && !best_contains))
            best = candidate, best_distance = d, best_contains = contains;
    }
    return best;
}

// The whole program's diagnosis (diagnosis.hpp): the mistakes' answers (the reference once more
// per declared mistake) are computed only when some part is wrong, a pair's only when no single
// mistake explains the program. Returns the candidates it could not tell apart.
static std::vector<Explanation> diagnose(const Exercise& exercise, const InputList& inputs, const ProgramOutput& parsed,
                                         const Values& expected, std::vector<PartResult>& parts, std::vector<Rival>& rivals) {
    std::vector<GivenPart> given;
    bool any_wrong = false;
    for (std::size_t i = 0; i < parts.size() && i < exercise.answers.size(); ++i) {
        auto line = parsed.answers.find(exercise.answers[i].name);
        auto want = expected.find(exercise.answers[i].name);
        given.push_back({&exercise.answers[i], &parts[i], line == parsed.answers.end() ? nullptr : &line->second,
                         want == expected.end() ? nullptr : &want->second});
        any_wrong = any_wrong || (parts[i].verdict == Verdict::wrong && line != parsed.answers.end());
    }
    std::map<std::string, Values> mistakes;
    if (any_wrong) try {
            mistakes = expected_answers_and_mistakes(exercise, inputs).mistakes;
        } catch (const std::exception&) {
            // no mistakes' answers for these inputs: only the generic diagnoses
        }
    const PairAnswers pairs = [&](const auto& tried) { return exercise.expected->pair_mistakes(exercise, inputs, tried); };
    const bool stepwise = any_wrong && !exercise.steps.empty();
    std::vector<Explanation> candidates = diagnose_program(given, mistakes, stepwise ? PairAnswers{} : pairs);
    if (stepwise) {  // step by step, from the student's own numbers; then two at once, where still needed
        diagnose_steps(given, exercise.steps, mistakes, [&](const Values& own) {
            return exercise.expected->answers_from_given(exercise, inputs, own);
        });
        if (candidates.empty()) candidates = diagnose_pairs(given, mistakes, pairs);
    }
    if (any_wrong && candidates.empty()) rivals = explain_by_error_model(given, exercise, inputs, mistakes);  // what nobody declared
    if (any_wrong && !exercise.properties.empty()) try {
            note_broken_properties(given, exercise.properties, parse_inputs(input_text(inputs), exercise.id + " inputs"));
        } catch (const std::exception&) {
        }
    forgive_float_rounding(given);
    return candidates;
}

ExerciseResult grade_output(const Exercise& exercise, const InputList& inputs, std::string_view output,
                            const AnswerCompareOptions& options) {
    ExpectedCase reference;
    try {
        reference.answers = expected_answers(exercise, inputs);
    } catch (const std::exception& e) {
        return failed_exercise(exercise, Verdict::grader_fault,
                               {std::string("the reference solution failed: ") + e.what(),
                                std::string("参考解答出错：") + e.what()});
    }
    const Values& expected = reference.answers;
    const ProgramOutput parsed = parse_program_output(output);
    ExerciseResult r;
    r.id = exercise.id;
    for (const AnswerSpec& spec : exercise.answers) {
        auto issue = std::find_if(parsed.issues.begin(), parsed.issues.end(),
                                  [&](const ProtocolIssue& i) { return i.name == spec.name; });
        auto given = parsed.answers.find(spec.name);
        auto want = expected.find(spec.name);
        if (want == expected.end())
            r.parts.push_back({spec.name, Verdict::grader_fault, spec.points, spec.points,
                               {"the reference solution gave no value for this part", "参考解答没有给出这一项的值"}});
        else if (given == parsed.answers.end() && issue != parsed.issues.end())
            r.parts.push_back(unparseable_part(spec, *issue));
        else {
            r.parts.push_back(grade_part(spec, given == parsed.answers.end() ? nullptr : &given->second, want->second, options));
        }
    }
    if (options.tutor) r.candidates = diagnose(exercise, inputs, parsed, expected, r.parts, r.rivals);
    r.output = std::string(output);
    if (options.follow_through)
        for (PartResult& p : r.parts)
            if (p.follow_through) p.score = *p.follow_through;
    std::vector<std::string> answer_names;
    for (const AnswerSpec& spec : exercise.answers) answer_names.push_back(spec.name);
    for (const ProtocolIssue& issue : parsed.issues)
        if (issue.name.empty()) r.issues.push_back(issue);
    for (const auto& [name, line] : parsed.answers)
        if (std::none_of(exercise.answers.begin(), exercise.answers.end(), [&](auto& a) { return a.name == name; }))
        {
            Text message{fmt::format("line {}: `{}`: this exercise has no answer called '{}'", line.line, line.text, name),
                         fmt::format("第 {} 行：`{}`：本题没有名为 '{}' 的答案", line.line, line.text, name)};
            if (auto near = closest_name(name, answer_names))
                message = {message.en + fmt::format("; did you mean `{}`?", *near),
                           message.zh + fmt::format("；是不是想写 `{}`？", *near)};
            r.issues.push_back({line.line, name, line.text, message});
        }
    settle_status(r);
    return r;
}

// The header's own message when the program asked for an input this exercise does not have
// (blockcheck.hpp exits with 2 after "blockcheck: this exercise has no input ..."); empty otherwise.
static std::string header_input_error(const RunResult& run) {
    constexpr std::string_view prefix = "blockcheck: ";
    if (run.status != RunStatus::exited || run.exit_code != 2) return {};
    const std::size_t at = run.err.rfind(prefix);
    if (at == std::string::npos) return {};
    const std::string line = run.err.substr(at + prefix.size(), run.err.find('\n', at) - at - prefix.size());
    return line.find("input") == std::string::npos ? std::string{} : printable(line, 400);
}

// The header's "has no input 'NAME'" message with the input NAME most likely meant (an input
// renamed since the program was written: gate -> w_gate); the message as it was otherwise.
static std::string with_input_suggestion(std::string message, const InputList& inputs) {
    constexpr std::string_view marker = "has no input '";
    const std::size_t at = message.find(marker);
    const std::size_t begin = at == std::string::npos ? at : at + marker.size();
    const std::size_t end = begin == std::string::npos ? begin : message.find('\'', begin);
    if (end == std::string::npos) return message;
    std::vector<std::string> names;
    for (const auto& [name, value] : inputs) names.push_back(name);
    if (auto near = closest_name(message.substr(begin, end - begin), names))
        message += fmt::format("; did you mean `{}`?", *near);
    return message;
}

// The header's English message about an input, in both languages: the sentence it prints for an
// input of another name is translated; any other stays as it is.
static Text input_error_text(const std::string& message) {
    static const std::regex no_input(R"(this exercise has no input '([^']*)'; its inputs are: ([^;]*)(; did you mean `([^`]*)`\?)?)");
    std::smatch m;
    // a regex recurses once a character: a name of thousands (the program's) is not translated
    if (message.size() > 2048 || !std::regex_match(message, m, no_input)) return {message, message};
    std::string zh = fmt::format("本题没有名为 '{}' 的输入；本题的输入：{}", m[1].str(), m[2].str());
    if (m[4].matched) zh += fmt::format("；是不是想写 `{}`？", m[4].str());
    return {message, zh};
}

ExerciseResult grade_run(const Exercise& exercise, const InputList& inputs, const RunResult& run, const Limits& limits,
                         const AnswerCompareOptions& options) {
    if (run.status == RunStatus::exited && run.exit_code == 0) return grade_output(exercise, inputs, run.out, options);
    const Verdict end = verdict_of_end(run.status);
    const std::string input_error = with_input_suggestion(header_input_error(run), inputs);
    const bool partial = run.status == RunStatus::exited || run.status == RunStatus::signaled ||
                         run.status == RunStatus::timed_out;
    ExerciseResult r = partial ? grade_output(exercise, inputs, run.out, options) : ExerciseResult{};
    const bool received = std::any_of(r.parts.begin(), r.parts.end(), [](const PartResult& p) { return p.verdict != Verdict::missing; });
    if (!received && input_error.empty()) return failed_exercise(exercise, end, describe_end(run, limits));
    // The parts printed before the end are graded; the rest are lost to it (or, when the program
    // read an input this exercise does not have, simply missing, with the header's message).
    const Text input_note = input_error_text(input_error);
    const Text lost = input_error.empty()
                          ? Text{std::string(verdict_name(end)), std::string(verdict_name(end))}
                          : Text{"not printed: the program stopped early: " + input_note.en,
                                 "未输出：程序提前停止：" + input_note.zh};
    for (PartResult& p : r.parts)
        if (p.verdict == Verdict::missing) {
            p.verdict = input_error.empty() ? end : Verdict::missing;
            p.message = lost;
            p.score = 0;
        }
    r.id = exercise.id;
    r.note = input_error.empty() ? describe_end(run, limits) : input_note;
    settle_status(r);
    // an early end is never done; a program that read an input of another name was started
    if (r.status == "done" || !input_error.empty()) r.status = "failing";
    return r;
}

bool printed_alike(const PartResult& a, const PartResult& b) {
    return !a.given.empty() && normalized_printed(a.given) == normalized_printed(b.given);
}

void mark_hard_coded(ExerciseResult& book, const ExerciseResult& variant, const InputList& inputs) {
    PartResult* noted = nullptr;  // the first part computed and wrong there: it carries the one note
    std::vector<const PartResult*> computed;
    for (PartResult& part : book.parts) {
        if (part.verdict != Verdict::correct) continue;
        auto other = std::find_if(variant.parts.begin(), variant.parts.end(), [&](const PartResult& p) { return p.name == part.name; });
        if (other == variant.parts.end() || other->verdict != Verdict::wrong) continue;
        book.wrong_on_variant.push_back(part.name);
        // printed the same whatever the inputs: the book's numbers, not computed
        if (printed_alike(part, *other)) {
            part.diagnosis = Diagnosis{"hard_coded", mistake_message("hard_coded")};
            continue;
        }
        // computed, but wrong on these inputs: say where, and what the variant's own diagnosis said
        if (!noted) noted = &part;
        computed.push_back(&*other);
    }
    if (noted) noted->notes.push_back(variant_failed_note(book.id, variant, inputs, computed));
    if (!book.wrong_on_variant.empty() && book.status == "done") book.status = "failing";  // a part wrong there is wrong
}

std::vector<std::string> mark_printed_constants(ExerciseResult& variant, const ExerciseResult& book) {
    std::vector<std::string> constant;
    for (PartResult& part : variant.parts) {
        if (part.verdict != Verdict::wrong) continue;
        auto same = std::find_if(book.parts.begin(), book.parts.end(), [&](const PartResult& p) { return p.name == part.name; });
        if (same == book.parts.end() || same->verdict != Verdict::correct || !printed_alike(part, *same)) continue;
        part.diagnosis = Diagnosis{"hard_coded", mistake_message("hard_coded")};
        part.diagnoses.clear();
        part.notes.clear();  // a property the numbers break, a step from them: not about a constant
        part.follow_through.reset();
        constant.push_back(part.name);
    }
    if (!constant.empty()) variant.candidates.clear();
    return constant;
}

ExerciseResult failed_exercise(const Exercise& exercise, Verdict verdict, Text note) {
    ExerciseResult r;
    r.id = exercise.id;
    r.note = std::move(note);
    for (const AnswerSpec& spec : exercise.answers) {
        // A fault of the grader costs no points: the part is credited, as grade_part does.
        const double score = verdict == Verdict::grader_fault ? spec.points : 0;
        r.parts.push_back({spec.name, verdict, score, spec.points,
                           {std::string(verdict_name(verdict)), std::string(verdict_name(verdict))}});
    }
    settle_status(r);
    if (verdict != Verdict::grader_fault) r.status = "failing";
    return r;
}

}  // namespace blockcheck
