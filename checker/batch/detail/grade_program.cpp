#include "checker/batch/detail/grade_program.hpp"

#include "checker/exercise/variants.hpp"
#include "checker/insight/insight_shared.hpp"
#include "checker/run/cache_prune.hpp"

#include <algorithm>

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
    rec.compiler = r.compiler, rec.redecided = r.redecided;
    rec.run_seconds = r.run_seconds;
    for (const PartResult& p : r.parts) {
        std::string message = p.message.in(lang);  // the notes (a step from the student's own numbers, ...) follow it
        for (const Text& note : p.notes) message += (lang == Lang::zh ? "；" : "; ") + note.in(lang);
        rec.parts.push_back({p.name, std::string(verdict_name(p.verdict)), p.score, p.max_score, message});
        rec.parts.back().follows = p.verdict == Verdict::wrong && p.follow_through.has_value();
        if (p.diagnosis) rec.parts.back().diagnosis_id = p.diagnosis->id, rec.parts.back().diagnosis_message = p.diagnosis->message.in(lang);
    }
    return rec;
}

// The compile decides the program's fate on any inputs: a compile error, a refused source, a
// fault of the grader's.
bool decided_before_running(const ExerciseResult& r) {
    return std::any_of(r.parts.begin(), r.parts.end(), [](const PartResult& p) {
        return p.verdict == Verdict::compile_error || p.verdict == Verdict::grader_fault;
    });
}

// The book's inputs' parts of `book` that are wrong and tell something the variant's record does
// not (another verdict or message), as feedback without points.
std::vector<PartRecord> book_feedback(const ExerciseRecord& variant, const ExerciseRecord& book) {
    std::vector<PartRecord> parts;
    for (const PartRecord& p : book.parts) {
        if (p.verdict == "correct") continue;
        const auto same = std::find_if(variant.parts.begin(), variant.parts.end(), [&](const PartRecord& v) {
            return v.name == p.name && v.verdict == p.verdict && v.message == p.message;
        });
        if (same != variant.parts.end()) continue;
        PartRecord told = p;
        told.score = told.max_score = 0;
        told.given.clear();
        parts.push_back(std::move(told));
    }
    return parts;
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

ProgramGrader::ProgramGrader(const GradeSettings& settings, fs::path cache_dir) : settings_(settings) {
    run_settings_.include_dir = settings.include_dir;
    run_settings_.cache_dir = std::move(cache_dir);
    run_settings_.limits = settings.run_limits;
    run_settings_.compile_limits = settings.compile_limits;
    run_settings_.jail = &jail_;
    run_settings_.way = settings.compile_way;
}

ProgramCosts ProgramGrader::costs() const {
    std::lock_guard lock(costs_mutex_);
    return costs_;
}

// The program has run: what its compile stored is charged to the student, and now and then the
// whole cache is pruned to its bound (cache_prune.hpp).
void ProgramGrader::bound_cache(const std::string& student, const std::vector<fs::path>& stored) {
    if (stored.empty()) return;  // a cache hit
    shares_.charge(student, stored);
    std::lock_guard lock(prune_mutex_);
    if ((unpruned_ += 1) < 64) return;  // a directory walk of the cache every 64 new entries
    unpruned_ = 0;
    prune_cache(run_settings_.cache_dir, grading_cache_bytes, grading_spare);
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
        if (settings_.variants) seed = student_variant_seed(e, student);  // its own probe: no other
        ProgramToJudge judged{program->source.name, shown_as, seed ? variant_inputs(e, *seed) : e.inputs, seed, std::nullopt};
        judged.submitted = program;  // compiled as read, once (submission_file.hpp)
        const AnswerCompareOptions compare{settings_.reveal, settings_.follow_through, settings_.tutor};
        ExerciseResult result = judge_program(e, judged, run_settings_, compare);
        ProgramCosts cost = result.cost;
        // Wrong on the variant: the same program on the book's inputs (compiled already), whose
        // wrong parts are told beside it, as the book's feedback; a part printed alike on both is
        // said to print the book's numbers (check's probe, seen from the other side).
        std::optional<ExerciseRecord> book_record;
        if (seed && result.status != "done" && !decided_before_running(result)) {
            const ExerciseResult book = judge_program(e, {program->source.name, shown_as, e.inputs, std::nullopt, std::nullopt, program},
                                                      run_settings_, compare);
            cost.runs += book.cost.runs, cost.run_seconds += book.cost.run_seconds;  // its compile was this one's
            mark_printed_constants(result, book);
            book_record = to_record(book, lang);
        }
        ExerciseRecord record = to_record(result, lang);
        if (book_record) record.book_parts = book_feedback(record, *book_record);
        {
            std::lock_guard lock(costs_mutex_);
            costs_ += cost;
        }
        bound_cache(student, result.stored);
        record.compile_cached = result.cost.compile_hits != 0;
        keep_wrong_answers(record, result.output);  // its wrong answers are kept (insight_shared.hpp)
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

}  // namespace blockcheck
