// The one road from a program to its verdict (grading.hpp: judge_program): the source refused
// or compiled, the binary's size checked, the run under the limits, the grade, the confirmation of
// a named mistake and the hard-coding probe.
#include "checker/common/files.hpp"
#include "checker/common/submission_file.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/exercise/variants.hpp"
#include "checker/run/run_cache.hpp"
#include "checker/run/sandbox.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>

namespace blockcheck {

namespace {

// Why the program is not compiled: unreadable (its mode, kind or size is the submission's, not a
// grader fault) or over max_submitted_source_bytes; nullopt when it is compiled. A grader's
// program was read by read_program (submission_file.hpp); a student's own file is looked at here.
std::optional<Text> source_refusal(const ProgramToJudge& program) {
    if (program.submitted) {
        if (program.submitted->readable()) return std::nullopt;
        const Text& why = program.submitted->problem;
        return Text{notes_text(program.submitted->notes, Lang::en) + why.en, notes_text(program.submitted->notes, Lang::zh) + why.zh};
    }
    std::error_code ec;
    if (::access(program.source.c_str(), R_OK) != 0) return Text{"the source cannot be read", "源文件无法读取"};
    // a pipe or device has no size: read_program refuses it by name when the compile reads it
    if (const auto size = std::filesystem::file_size(program.source, ec); !ec && size > max_submitted_source_bytes)
        return Text{"the source is larger than 1 MiB", "源文件超过 1 MiB"};
    return std::nullopt;
}

// Runs `binary` on `inputs` the way `settings` says, counting the run into `cost`.
RunResult run_binary(const std::filesystem::path& binary, const InputList& inputs, const RunSettings& settings,
                     ProgramCosts& cost) {
    const std::string input = input_text(inputs);
    const auto start = std::chrono::steady_clock::now();
    const RunResult run = settings.jail                                  ? settings.jail->run(binary, input, settings.limits)
                          : settings.remember_runs && !settings.sandbox ? run_remembered(binary, input, settings.limits)
                                                                         : run_process({binary.string()}, input, settings.limits,
                                                                                       settings.sandbox ? settings.sandbox->writable_dir
                                                                                                        : std::filesystem::path{},
                                                                                       settings.sandbox);
    cost.runs += 1;
    cost.run_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return run;
}

// Every part lost to `refusal`, told on each part and in the note.
ExerciseResult refused(const Exercise& exercise, const Text& refusal) {
    ExerciseResult r = failed_exercise(exercise, Verdict::compile_error, refusal);
    for (PartResult& p : r.parts) p.message = refusal;
    return r;
}

// The compile's notes (a link beside the source, read as the student but not graded) before the result's note.
void add_compile_notes(ExerciseResult& r, const CompileResult& build) {
    if (build.notes.empty()) return;
    r.note = {notes_text(build.notes, Lang::en) + r.note.en, notes_text(build.notes, Lang::zh) + r.note.zh};
}

}  // namespace

ProgramCosts& ProgramCosts::operator+=(const ProgramCosts& more) {
    compiles += more.compiles, compile_hits += more.compile_hits, runs += more.runs;
    compile_seconds += more.compile_seconds, run_seconds += more.run_seconds;
    return *this;
}

namespace {

// The program judged with its binary built `way`.
ExerciseResult judge_built(const Exercise& exercise, const ProgramToJudge& program, const RunSettings& settings,
                           const AnswerCompareOptions& options, CompileWay way) {
    ExerciseResult r;
    const std::optional<Text> refusal = source_refusal(program);
    const CompileResult build =
        refusal             ? CompileResult{}
        : program.submitted ? compile_program(*program.submitted, settings.include_dir, settings.cache_dir,
                                              settings.compile_limits, way, program.shown_as)
                            : compile_program(program.source, settings.include_dir, settings.cache_dir,
                                              settings.compile_limits, way, program.shown_as);
    std::error_code ec;
    if (refusal)
        r = refused(exercise, *refusal);
    else if (!build.ok())
        r = failed_exercise(exercise, build.status == CompileStatus::grader_fault ? Verdict::grader_fault : Verdict::compile_error,
                            {build.diagnostics, build.diagnostics});
    else if (std::filesystem::file_size(build.binary, ec) > max_binary_bytes)
        // copying it into a jail could fail for want of space, and a grader fault is credited
        r = refused(exercise, {"the compiled program is larger than 64 MiB", "编译出的程序超过 64 MiB"});
    else {
        const RunResult run = run_binary(build.binary, program.inputs, settings, r.cost);
        const ProgramCosts ran = r.cost;
        r = grade_run(exercise, program.inputs, run, settings.limits, options);
        r.cost = ran;
        // a mistake named is confirmed on other inputs, seeded from the program (its binary's
        // content name) and the inputs it ran on
        const std::string seed = build.binary.filename().string() + "/" +
                                 (program.variant ? std::to_string(*program.variant) : std::string("book"));
        if (options.tutor)
            confirm_diagnoses(exercise, r, seed, [&](const InputList& other) {
                return grade_run(exercise, other, run_binary(build.binary, other, settings, r.cost), settings.limits, options);
            });
        r.run_seconds = run.wall_seconds;
        r.output = run.out;
        if (program.probe && r.status == "done" && !exercise.variants.empty()) {
            const InputList probe = variant_inputs(exercise, *program.probe);
            ExerciseResult probed =
                grade_run(exercise, probe, run_binary(build.binary, probe, settings, r.cost), settings.limits, options);
            probed.variant = program.probe;
            mark_hard_coded(r, probed, probe);
        }
    }
    r.variant = program.variant;
    r.compile_seconds = build.seconds;
    r.cost.compiles = !refusal;
    r.cost.compile_hits = build.cached;
    r.cost.compile_seconds = build.seconds;
    r.stored = build.stored;
    r.compiler = refusal ? "" : build.compiler;
    add_compile_notes(r, build);
    return r;
}

// Full marks and nothing else to say: every part correct, no output line that is no answer, no
// part wrong on the probe's variant. Only such a verdict of clang's build stands.
bool full_marks(const ExerciseResult& r) {
    return r.status == "done" && r.score >= r.max_score && r.issues.empty() && r.wrong_on_variant.empty() &&
           std::all_of(r.parts.begin(), r.parts.end(), [](const PartResult& p) { return p.verdict == Verdict::correct; });
}

// The exercise's template as the repository ships it (include_dir's parent is the repository),
// handed in unchanged. It loses points (or is a worked example's whole program), and g++ decides
// every lost point: g++ builds it at once instead of after clang's build (docs/compile-speed.md).
bool untouched_template(const Exercise& exercise, const ProgramToJudge& program, const RunSettings& settings) {
    if (settings.include_dir.empty()) return false;
    const auto template_text = read_file_if_readable(settings.include_dir.parent_path() / exercise.source);
    if (!template_text) return false;
    if (program.submitted) return program.submitted->source.bytes == *template_text;
    const std::filesystem::path folder =
        program.source.parent_path().empty() ? std::filesystem::path(".") : program.source.parent_path();
    const SubmittedProgram read = read_program(folder, program.source.filename().string(), Links::follow_and_report);
    return read.readable() && read.source.bytes == *template_text;
}

}  // namespace

ExerciseResult judge_program(const Exercise& exercise, const ProgramToJudge& program, const RunSettings& settings,
                             const AnswerCompareOptions& options) {
    if (settings.way != CompileWay::clang) return judge_built(exercise, program, settings, options, settings.way);
    if (untouched_template(exercise, program, settings))
        return judge_built(exercise, program, settings, options, CompileWay::fast);
    ExerciseResult first = judge_built(exercise, program, settings, options, CompileWay::clang);
    if (first.compiler != "clang" || full_marks(first)) return first;  // g++ built it already, or clang's full marks
    ExerciseResult decided = judge_built(exercise, program, settings, options, CompileWay::fast);
    decided.redecided = true;
    decided.cost += first.cost;
    decided.compile_seconds += first.compile_seconds;
    decided.stored.insert(decided.stored.begin(), first.stored.begin(), first.stored.end());
    return decided;
}

}  // namespace blockcheck
