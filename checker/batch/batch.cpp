// The batch: prepare each student (unpack an archive, find the sources, key them, reuse an
// unchanged result), grade what changed on the pool (one task a program), write each result the
// moment it is complete, render the class files.
#include "checker/batch/batch.hpp"

#include "checker/common/files.hpp"
#include "checker/common/hashing.hpp"
#include "checker/common/stale_sweep.hpp"
#include "checker/batch/archive.hpp"
#include "checker/outputs/gradescope.hpp"
#include "checker/batch/detail/grade_program.hpp"
#include "checker/insight/insight.hpp"
#include "checker/insight/insight_code.hpp"
#include "checker/batch/detail/output_lock.hpp"
#include "checker/batch/detail/pool.hpp"
#include "checker/insight/report_html.hpp"
#include "checker/batch/detail/resume.hpp"
#include "checker/outputs/sandbox_policy.hpp"
#include "checker/outputs/student_id.hpp"
#include "checker/compile/compile_area.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <set>

namespace blockcheck {

namespace fs = std::filesystem;

namespace {

using BatchClock = std::chrono::steady_clock;

double seconds_since(BatchClock::time_point start) {
    return std::chrono::duration<double>(BatchClock::now() - start).count();
}

struct Job {
    const Submission* submission = nullptr;
    fs::path unpacked;  // the archive's folder, removed when the student is done
    Sources sources;
    std::vector<std::optional<SubmittedProgram>> programs;  // per exercise, read once (submission_file.hpp)
    StudentRecord record;
    BatchClock::time_point start;
    bool reused = false;                   // unchanged since an earlier run
    std::set<std::string> earlier_faults;  // exercises the grader failed on last time, with this same key
};

class Batch {
public:
    Batch(const ExerciseSet& set, const std::vector<Submission>& submissions, const GradeSettings& settings,
          const std::function<void(const GradeProgress&)>& progress)
        : set_(set), settings_(settings), progress_(progress), jobs_(submissions.size()) {
        for (std::size_t i = 0; i < submissions.size(); ++i) jobs_[i].submission = &submissions[i];
    }

    GradeReport run();

private:
    void set_up_folders();
    std::size_t prepare(std::size_t student);
    void read_submission(Job& job, std::size_t student);
    void finish(std::size_t student);
    void write_result(Job& job);
    GradeReport report();

    const ExerciseSet& set_;
    const GradeSettings& settings_;
    GradeSettings compile_settings_;  // settings_, with the header folder compiles read
    const std::function<void(const GradeProgress&)>& progress_;
    std::vector<Job> jobs_;
    std::unique_ptr<ProgramGrader> programs_;
    fs::path work_dir_, results_dir_, gradescope_dir_;
    Digest fingerprint_{};
    std::mutex progress_mutex_;
    std::size_t finished_ = 0;
};

// The output's folders, and what killed runs left in them.
void Batch::set_up_folders() {
    // Grades are private: a new output folder is the grader's alone.
    if (!fs::exists(settings_.out)) make_private_folder(settings_.out);
    results_dir_ = settings_.out / "results";
    gradescope_dir_ = settings_.out / "gradescope";
    fs::create_directories(results_dir_);
    if (settings_.write_gradescope) fs::create_directories(gradescope_dir_);
    make_private_folder(settings_.out / ".work");
    sweep_stale(settings_.out / ".work", "");  // unpacking folders of killed graders
    for (const fs::path& dir : {results_dir_, gradescope_dir_, settings_.out}) sweep_stale(dir, ".tmp-");
    work_dir_ = settings_.out / ".work" / (std::to_string(::getpid()) + "-" + hex(content_hash(std::to_string(
                                                                                   BatchClock::now().time_since_epoch().count()))));
}

GradeReport Batch::run() {
    const auto start = BatchClock::now();
    const fs::path cache_dir = settings_.cache_dir.empty() ? settings_.out / ".cache" : settings_.cache_dir;
    // As root without bubblewrap, under a folder closed to others: compiles in a work area the
    // throw-away uid reaches (compile_area.hpp).
    const CompileArea area(settings_.include_dir, cache_dir);
    compile_settings_ = settings_;
    compile_settings_.include_dir = area.include_dir();
    programs_ = std::make_unique<ProgramGrader>(compile_settings_, area.cache_dir());
    set_up_folders();
    if (!area.moved()) make_private_folder(cache_dir);
    // As root, compiles run as throw-away uids in build folders of their own inside the cache:
    // it must be searchable by them, never listable (checker/compile/compile_user.cpp).
    if (::geteuid() == 0 && !area.moved()) fs::permissions(cache_dir, fs::perms(0711));
    fingerprint_ = run_fingerprint(set_, settings_, programs_->isolation());
    const double setup = seconds_since(start);

    const PoolWork work{[this](std::size_t student) { return prepare(student); },
                        [this](std::size_t student, std::size_t exercise) {
                            Job& job = jobs_[student];
                            const auto& program = job.programs[exercise];
                            job.record.exercises[exercise] = programs_->grade(
                                set_.all()[exercise], job.submission->student, program ? &*program : nullptr,
                                job.sources.relative[exercise]);
                            if (program && program->readable())
                                job.record.exercises[exercise].code_shape = code_shape(program->source.bytes);
                        },
                        [this](std::size_t student) { finish(student); }};
    const double busy = run_pool(jobs_.size(), settings_.jobs, work);
    std::error_code ec;
    fs::remove_all(work_dir_, ec);

    const auto render_start = BatchClock::now();
    GradeReport r = report();
    const ProgramCosts costs = programs_->costs();
    r.grader_seconds = setup + (busy - costs.compile_seconds - costs.run_seconds) + seconds_since(render_start);
    r.wall_seconds = seconds_since(start);
    return r;
}

// Returns the number of programs to grade; 0 when the student is done already (an unreadable
// archive, an unchanged result, a fault of the grader's, an empty set).
std::size_t Batch::prepare(std::size_t student) {
    Job& job = jobs_[student];
    job.start = BatchClock::now();
    job.record.student = job.submission->student;
    job.record.submission = job.submission->path.filename().string();
    job.record.variants = settings_.variants;
    job.record.unsandboxed = !is_sandbox(programs_->isolation());
    try {
        read_submission(job, student);
        if (!job.record.exercises.empty() || job.reused) return 0;
    } catch (const std::exception& fault) {
        job.record.exercises.clear();
        for (const Exercise& e : set_.all())
            job.record.exercises.push_back(whole_exercise(
                e, Verdict::grader_fault,
                {std::string("the grader failed to read the submission: ") + fault.what(),
                 std::string("评分程序读取提交时出错：") + fault.what()},
                settings_.lang));
        return 0;
    }
    job.record.exercises.resize(set_.all().size());
    return set_.all().size();
}

// A submission that is not graded (a bad archive, several of one student): every exercise
// missing, the reason in the record's error and in each part's message.
void unreadable(StudentRecord& record, const ExerciseSet& set, const Text& why, Lang lang) {
    record.error = why.en;
    for (const Exercise& e : set.all())
        record.exercises.push_back(
            whole_exercise(e, Verdict::missing, {"the submission could not be read: " + why.en, "无法读取提交：" + why.zh}, lang));
}

// Unpacks an archive (a bad one fills the record), finds the sources, keys them, and takes an
// unchanged earlier result.
void Batch::read_submission(Job& job, std::size_t student) {
    if (const std::optional<Text> rivals = rivals_problem(*job.submission)) return unreadable(job.record, set_, *rivals, settings_.lang);
    fs::path folder;
    if (job.submission->archive) job.unpacked = work_dir_ / std::to_string(student);
    try {
        folder = submission_folder(*job.submission, job.unpacked, job.record.notes);
    } catch (const ArchiveError& bad) {
        return unreadable(job.record, set_, {bad.what(), bad.what()}, settings_.lang);
    }
    job.sources = find_sources(folder, set_, settings_.accept_near_names);
    job.record.notes.insert(job.record.notes.end(), job.sources.notes.begin(), job.sources.notes.end());
    job.record.misnamed = job.sources.misnamed;
    job.record.misnamed_more = job.sources.misnamed_more;
    job.programs.resize(job.sources.file.size());
    for (std::size_t i = 0; i < job.sources.file.size(); ++i)
        if (!job.sources.file[i].empty()) job.programs[i] = read_program(folder, job.sources.relative[i], Links::refuse);
    job.record.key = student_key(fingerprint_, job.submission->student, job.sources, job.programs);
    if (settings_.regrade) return;
    EarlierResult earlier = earlier_result(results_dir_, job.submission->student, job.record.key);
    job.earlier_faults = std::move(earlier.faults);
    if (earlier.reusable) {
        job.record = std::move(*earlier.reusable);
        job.reused = true;
    }
}

void Batch::write_result(Job& job) {
    const std::string stem = student_file_stem(job.record.student);
    try {
        write_file_atomically(results_dir_ / (stem + ".json"), dump_json(student_json(job.record)));
        if (settings_.write_gradescope)
            write_file_atomically(gradescope_dir_ / (stem + ".json"), dump_json(gradescope_json(job.record, settings_.lang)));
    } catch (const std::exception& e) {
        // This student's loss only: the class files still list them, and the next run grades them again.
        job.record.notes.push_back(std::string("the results file could not be written: ") + e.what());
        std::lock_guard lock(progress_mutex_);
        fmt::print(stderr, "blockcheck: {}: {}\n", printable_id(job.record.student), printable_id(e.what()));
    }
}

// An exercise without its file, beside a misnamed file nearest to it: its note names that file.
void name_misnamed_in_missing(StudentRecord& record, const ExerciseSet& set, Lang lang) {
    for (std::size_t i = 0; i < record.exercises.size() && i < set.all().size(); ++i) {
        ExerciseRecord& e = record.exercises[i];
        if (!e.source.empty()) continue;
        for (const MisnamedFile& m : record.misnamed)
            if (m.nearest == set.all()[i].file_name() && m.graded_as.empty())
                e.note += (e.note.empty() ? "" : "\n") + misnamed_text(m, lang);
    }
}

void Batch::finish(std::size_t student) {
    Job& job = jobs_[student];
    if (!job.reused) {
        name_misnamed_in_missing(job.record, set_, settings_.lang);
        mark_repeated_faults(job.record, job.earlier_faults);
        settle(job.record);
        job.record.seconds = seconds_since(job.start);
        write_result(job);
    }
    job.programs.clear();
    if (!job.unpacked.empty()) {
        std::error_code ec;
        fs::remove_all(job.unpacked, ec);
    }
    std::lock_guard lock(progress_mutex_);
    ++finished_;
    if (progress_) progress_({finished_, jobs_.size(), &job.record, job.reused});
}

// The records by id, the Gradescope files an earlier run did not leave, the counts.
GradeReport Batch::report() {
    GradeReport report;
    report.isolation = programs_->isolation();
    for (Job& job : jobs_) {
        report.students.push_back(std::move(job.record));
        (job.reused ? report.reused : report.graded) += 1;
    }
    std::sort(report.students.begin(), report.students.end(),
              [](const StudentRecord& a, const StudentRecord& b) { return a.student < b.student; });
    if (settings_.write_gradescope) {
        for (StudentRecord& s : report.students) {
            const fs::path file = gradescope_dir_ / (student_file_stem(s.student) + ".json");
            try {
                if (!fs::exists(file)) write_file_atomically(file, dump_json(gradescope_json(s, settings_.lang)));
            } catch (const std::exception& e) {
                s.notes.push_back(std::string("the Gradescope file could not be written: ") + e.what());
            }
        }
    }
    for (const StudentRecord& s : report.students) {
        report.bad_submissions += !s.error.empty();
        report.grader_faults = report.grader_faults || s.has_grader_fault();
        report.repeated_grader_faults = report.repeated_grader_faults || s.has_repeated_grader_fault();
    }
    const ProgramCosts costs = programs_->costs();
    report.compiles = costs.compiles;
    report.compile_hits = costs.compile_hits;
    report.runs = costs.runs;
    report.compile_seconds = costs.compile_seconds;
    report.run_seconds = costs.run_seconds;
    return report;
}

}  // namespace

GradeReport grade_class(const ExerciseSet& set, const std::vector<fs::path>& dirs, GradeSettings settings,
                        const ClassHooks& hooks) {
    std::vector<Submission> all = find_submissions(dirs, &settings.ignored);
    std::vector<Submission> chosen;
    for (Submission& s : all)
        if (!settings.shard || in_shard(s.student, *settings.shard)) chosen.push_back(std::move(s));
    if (hooks.found) hooks.found({all.size(), chosen.size(), &settings.ignored});
    return grade_submissions(set, chosen, settings, hooks.progress);
}

GradeReport grade_submissions(const ExerciseSet& set, const std::vector<Submission>& submissions,
                              const GradeSettings& settings, const std::function<void(const GradeProgress&)>& progress) {
    if (!fs::exists(settings.out)) make_private_folder(settings.out);  // grades are private
    const OutputLock lock(settings.out);
    Batch batch(set, submissions, settings, progress);
    GradeReport report = batch.run();
    const auto start = BatchClock::now();
    write_class_files(settings.out, set, report.students, settings.ignored, settings.lang);
    write_file_atomically(settings.out / manifest_name,
                          dump_json(run_manifest(set, settings.variants, settings.shard, report.students)));
    report.grader_seconds += seconds_since(start);
    report.wall_seconds += seconds_since(start);
    return report;
}

void write_class_files(const fs::path& out, const ExerciseSet& set, const std::vector<StudentRecord>& students,
                       const std::vector<IgnoredEntry>& ignored, Lang lang) {
    std::vector<const Exercise*> exercises;
    for (const Exercise& e : set.all()) exercises.push_back(&e);
    write_file_atomically(out / "gradebook.csv", gradebook_csv(exercises, students));
    write_file_atomically(out / "junit.xml", junit_xml(students, lang));
    write_file_atomically(out / "summary.txt", summary_text(exercises, students, ignored));
    const Insight insight = compute_insight(set, students);
    write_insight_files(out, insight);
    write_file_atomically(out / "report.html", report_html(exercises, students, &insight, lang));
}

}  // namespace blockcheck
