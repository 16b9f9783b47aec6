#include "checker/grade/grade_program.hpp"

#include "checker/exercise/variants.hpp"
#include "checker/grade/insight_shared.hpp"
#include "checker/run/cache_prune.hpp"

#include <unistd.h>

#include <chrono>

namespace blockcheck {

namespace fs = std::filesystem;

namespace {

ExerciseRecord to_record(const ExerciseResult& r, Lang lang) {
    ExerciseRecord rec;
    rec.id = r.id;
    rec.status = r.status;
    rec.score = r.score;
    rec.max_score = r.max_score;
    rec.variant = r.variant;
    rec.note = r.note.in(lang);
    for (const ProtocolIssue& issue : r.issues) rec.issues.push_back(issue.message.in(lang));
    rec.compile_seconds = r.compile_seconds;
    rec.run_seconds = r.run_seconds;
    for (const PartResult& p : r.parts) {
        std::string message = p.message.in(lang);  // the notes (a step from the student's own numbers, ...) follow it
        for (const Text& note : p.notes) message += (lang == Lang::zh ? "；" : "; ") + note.in(lang);
        rec.parts.push_back({p.name, std::string(verdict_name(p.verdict)), p.score, p.max_score, message});
        if (p.diagnosis) rec.parts.back().diagnosis_id = p.diagnosis->id, rec.parts.back().diagnosis_message = p.diagnosis->message.in(lang);
    }
    return rec;
}

}  // namespace

ExerciseRecord whole_exercise(const Exercise& e, Verdict verdict, const Text& message, Lang lang) {
    ExerciseResult r = failed_exercise(e, verdict, {});
    for (PartResult& p : r.parts) p.message = message;
    if (verdict == Verdict::missing) r.status = "not_done";
    return to_record(r, lang);
}

void settle(StudentRecord& s) {
    s.score = s.max_score = 0;
    for (const ExerciseRecord& e : s.exercises) s.score += e.score, s.max_score += e.max_score;
}

ProgramGrader::ProgramGrader(const GradeSettings& settings, fs::path cache_dir)
    : settings_(settings), cache_dir_(std::move(cache_dir)) {}

ProgramCosts ProgramGrader::costs() const {
    std::lock_guard lock(time_mutex_);
    return {compiles_, compile_hits_, runs_, compile_seconds_, run_seconds_};
}

// The program has run: what its compile stored is charged to the student, and now and then the
// whole cache is pruned to its bound (cache_prune.hpp).
void ProgramGrader::bound_cache(const std::string& student, const std::vector<fs::path>& stored) {
    if (stored.empty()) return;  // a cache hit
    shares_.charge(student, stored);
    std::lock_guard lock(prune_mutex_);
    if ((unpruned_ += 1) < 64) return;  // a directory walk of the cache every 64 new entries
    unpruned_ = 0;
    prune_cache(cache_dir_, grading_cache_bytes, grading_spare);
}

ExerciseRecord ProgramGrader::grade(const Exercise& e, const std::string& student, const SubmittedProgram* program,
                                    const std::string& shown_as) {
    const Lang lang = settings_.lang;
    try {
        if (!program)
            return whole_exercise(e, Verdict::missing,
                                  {"no file named " + e.file_name() + " in the submission",
                                   "提交中没有名为 " + e.file_name() + " 的文件"},
                                  lang);
        std::optional<std::uint64_t> seed;
        if (settings_.variants) seed = variant_seed(student, e.id);
        ExerciseRecord record = compile_and_run(e, student, *program, shown_as, seed);
        record.source = shown_as;
        return record;
    } catch (const std::exception& fault) {
        ExerciseRecord record = whole_exercise(
            e, Verdict::grader_fault, {std::string("the grader failed: ") + fault.what(), std::string("评分程序出错：") + fault.what()},
            lang);
        record.note = std::string("the grader failed: ") + fault.what();
        return record;
    }
}

ExerciseRecord ProgramGrader::compile_and_run(const Exercise& e, const std::string& student, const SubmittedProgram& program,
                                              const std::string& shown_as,
                                              std::optional<std::uint64_t> seed) {
    const Lang lang = settings_.lang;
    const InputList inputs = seed ? variant_inputs(e, *seed) : e.inputs;
    std::error_code ec;
    if (!program.readable()) {  // the file's mode, kind or size is the submission's: not a grader fault
        ExerciseRecord r = whole_exercise(e, Verdict::compile_error, program.problem, lang);
        r.note = notes_text(program.notes, lang) + program.problem.in(lang);
        r.variant = seed;
        return r;
    }
    const CompileResult build =
        compile_program(program, settings_.include_dir, cache_dir_, settings_.compile_limits, CompileWay::fast, shown_as);
    ++compiles_;
    compile_hits_ += build.cached;
    {
        std::lock_guard lock(time_mutex_);
        compile_seconds_ += build.seconds;
    }
    ExerciseResult result;
    double run_seconds = 0;
    std::string output;  // what the program printed: its wrong answers are kept (insight_shared.hpp)
    if (!build.ok()) {
        const Verdict verdict = build.status == CompileStatus::grader_fault ? Verdict::grader_fault : Verdict::compile_error;
        result = failed_exercise(e, verdict, {build.diagnostics, build.diagnostics});
    } else if (fs::file_size(build.binary, ec) > max_binary_bytes) {
        // Copying it into the jail could fail for want of space, and a grader fault is credited.
        result = failed_exercise(e, Verdict::compile_error,
                                 {"the compiled program is larger than 64 MiB", "编译出的程序超过 64 MiB"});
    } else {
        const auto start = std::chrono::steady_clock::now();
        const RunResult run = jail_.run(build.binary, input_text(inputs), settings_.run_limits);
        ++runs_;
        {
            std::lock_guard lock(time_mutex_);
            run_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
        result = grade_run(e, inputs, run, settings_.run_limits, AnswerCompareOptions{settings_.reveal, settings_.follow_through});
        // a mistake named is confirmed on other inputs (seeded from the program and its case)
        confirm_diagnoses(e, result, build.binary.filename().string() + "/" + (seed ? std::to_string(*seed) : "book"),
                          [&](const InputList& other) {
                              return grade_run(e, other, jail_.run(build.binary, input_text(other), settings_.run_limits),
                                               settings_.run_limits, AnswerCompareOptions{settings_.reveal, settings_.follow_through});
                          });
        run_seconds = run.wall_seconds;
        output = run.out;
    }
    bound_cache(student, build.stored);
    result.variant = seed;
    result.compile_seconds = build.seconds;
    result.run_seconds = run_seconds;
    ExerciseRecord record = to_record(result, lang);
    record.note = notes_text(build.notes, lang) + record.note;  // links beside the source, and such
    record.compile_cached = build.cached;
    keep_wrong_answers(record, output);
    return record;
}

}  // namespace blockcheck
