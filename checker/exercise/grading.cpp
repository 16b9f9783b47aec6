#include "checker/exercise/grading.hpp"

#include <fmt/format.h>

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

}  // namespace

// The last lines of a crashed program's stderr, for the message.
static std::string tail_lines(const std::string& text, std::size_t lines = 5) {
    std::size_t pos = text.size();
    for (std::size_t n = 0; pos > 0 && n <= lines; --pos)
        if (text[pos - 1] == '\n' && pos != text.size()) ++n;
    return printable(text.substr(pos), 600);
}

Text describe_end(const RunResult& run, const Limits& limits) {
    const std::string err = run.err.empty() ? "" : "\n" + tail_lines(run.err);
    switch (run.status) {
        case RunStatus::timed_out:
            return {fmt::format("stopped after {:.1f} s (limit: {} s CPU, {} s wall): an endless loop, or waiting for input?",
                                run.wall_seconds, limits.cpu_seconds, limits.wall_seconds),
                    fmt::format("运行 {:.1f} 秒后被终止（限制：CPU {} 秒，实际 {} 秒）：是死循环，还是在等待输入？",
                                run.wall_seconds, limits.cpu_seconds, limits.wall_seconds)};
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

Values reference_answers(const Exercise& exercise, const InputList& inputs) {
    const Values values = parse_inputs(input_text(inputs), exercise.id + " inputs");
    return reference_solutions().at(exercise.id)(Inputs(values));
}

ExerciseResult grade_output(const Exercise& exercise, const InputList& inputs, std::string_view output,
                            const AnswerCompareOptions& options) {
    Values expected;
    try {
        expected = reference_answers(exercise, inputs);
    } catch (const std::exception& e) {
        return failed_exercise(exercise, Verdict::grader_fault,
                               {std::string("the reference solution failed: ") + e.what(),
                                std::string("参考解答出错：") + e.what()});
    }
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
        else
            r.parts.push_back(grade_part(spec, given == parsed.answers.end() ? nullptr : &given->second, want->second, options));
    }
    for (const ProtocolIssue& issue : parsed.issues)
        if (issue.name.empty()) r.issues.push_back(issue);
    for (const auto& [name, line] : parsed.answers)
        if (std::none_of(exercise.answers.begin(), exercise.answers.end(), [&](auto& a) { return a.name == name; }))
            r.issues.push_back({line.line, name, line.text,
                                {fmt::format("line {}: `{}`: this exercise has no answer called '{}'", line.line, line.text, name),
                                 fmt::format("第 {} 行：`{}`：本题没有名为 '{}' 的答案", line.line, line.text, name)}});
    settle_status(r);
    return r;
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

ExerciseResult check_program(const Exercise& exercise, const std::filesystem::path& source, const InputList& inputs,
                             const RunSettings& settings, const AnswerCompareOptions& options) {
    const CompileResult build = compile_program(source, settings.include_dir, settings.cache_dir);
    if (!build.ok) {
        ExerciseResult r = failed_exercise(exercise, Verdict::compile_error, {build.diagnostics, build.diagnostics});
        r.compile_seconds = build.seconds;
        return r;
    }
    const std::filesystem::path workdir = settings.sandbox ? settings.sandbox->writable_dir : std::filesystem::path{};
    const RunResult run = run_process({build.binary.string()}, input_text(inputs), settings.limits, workdir, settings.sandbox);
    ExerciseResult r = run.status == RunStatus::exited && run.exit_code == 0
                           ? grade_output(exercise, inputs, run.out, options)
                           : failed_exercise(exercise, verdict_of_end(run.status), describe_end(run, settings.limits));
    r.compile_seconds = build.seconds;
    r.run_seconds = run.wall_seconds;
    return r;
}

}  // namespace blockcheck
