// The batch: find the submissions, unpack archives, find each exercise's source, key each
// student by everything their result depends on, grade what changed on a pool of workers (one
// task per program), write each result the moment it is complete, render the class files.
#include "checker/grade/batch.hpp"

#include "checker/grade/archive.hpp"
#include "checker/common/files.hpp"
#include "checker/common/hashing.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/grade/report_html.hpp"
#include "checker/grade/sandbox_policy.hpp"
#include "checker/grade/student_id.hpp"
#include "checker/exercise/variants.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cerrno>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace blockcheck {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

constexpr std::size_t max_source_bytes = 1u << 20;   // a longer "source" is not a student's program
constexpr std::size_t max_walk_entries = 20000;      // entries looked at in one submission folder
constexpr std::size_t max_binary_bytes = 64u << 20;  // a bigger program is the student's doing, never a copy to fail
constexpr const char* manifest_name = ".grade-run.json";

// ---------------------------------------------------------------------------------------------
// What a result depends on besides the student's sources.

// The grader binary's bytes (the reference solutions and the comparison live in it).
std::string grader_binary_hash() {
    static const std::string hash = hex(content_hash(read_file_if_readable("/proc/self/exe").value_or("unknown grader")));
    return hash;
}

Digest hash_limits(Digest h, const Limits& l) {
    return hash_field(h, fmt::format("{}|{}|{}|{}|{}|{}|{}", l.cpu_seconds, l.wall_seconds, l.memory_bytes,
                                     l.output_bytes, l.file_bytes, l.open_files, l.processes));
}

// Everything every student's result depends on, apart from their own sources.
Digest run_fingerprint(const ExerciseSet& set, const GradeSettings& s, Isolation isolation) {
    Digest h = content_hash("blockcheck-grade-1");
    h = hash_field(h, grader_binary_hash());
    h = hash_field(h, compiler_identity("g++"));
    std::vector<fs::path> headers;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(s.include_dir, ec))
        if (entry.is_regular_file(ec)) headers.push_back(entry.path());
    std::sort(headers.begin(), headers.end());
    for (const fs::path& header : headers) {
        h = hash_field(h, header.filename().string());
        h = hash_field(h, read_file_if_readable(header).value_or("<unreadable>"));
    }
    for (const Exercise& e : set.all()) {
        h = hash_field(h, e.id);
        h = hash_field(h, read_file_if_readable(e.file).value_or("<unreadable>"));
    }
    h = hash_limits(h, s.run_limits);
    h = hash_limits(h, s.compile_limits);
    h = hash_field(h, isolation_name(isolation));
    h = hash_field(h, fmt::format("{}|{}|{}", s.variants, s.reveal, s.lang == Lang::zh ? "zh" : "en"));
    return h;
}

// The definitions alone: shards to be merged must agree on them.
std::string exercises_fingerprint(const ExerciseSet& set) {
    Digest h = content_hash("blockcheck-exercises-1");
    for (const Exercise& e : set.all()) {
        h = hash_field(h, e.id);
        h = hash_field(h, read_file_if_readable(e.file).value_or("<unreadable>"));
    }
    return hex(h);
}

// ---------------------------------------------------------------------------------------------
// Finding a student's sources.

struct Sources {
    std::vector<fs::path> file;          // per exercise of the set; empty path: not found
    std::vector<std::string> relative;   // the same, relative to the submission
    std::vector<std::string> notes;
};

bool skipped_folder(const std::string& name) { return name.starts_with(".") || name == "__MACOSX"; }

// How well a found file matches where the exercise lives: the full path chapters/ch25/x.cpp
// beats ch25/x.cpp beats anywhere; then shallower beats deeper; then by name.
std::tuple<int, std::size_t, std::string> rank(const Exercise& e, const fs::path& relative) {
    const std::string rel = relative.generic_string();
    const fs::path source(e.source);
    const std::string full = source.generic_string();
    const std::string chapter = (source.parent_path().filename() / source.filename()).generic_string();
    int place = rel == full || rel.ends_with("/" + full) ? 0 : rel == chapter || rel.ends_with("/" + chapter) ? 1 : 2;
    return {place, static_cast<std::size_t>(std::distance(relative.begin(), relative.end())), rel};
}

// Walks the folder without following links; a file of an exercise's name is a candidate.
Sources find_sources(const fs::path& folder, const ExerciseSet& set) {
    std::map<std::string, std::vector<std::size_t>> by_name;
    for (std::size_t i = 0; i < set.all().size(); ++i) by_name[set.all()[i].file_name()].push_back(i);
    std::vector<std::vector<fs::path>> candidates(set.all().size());
    Sources found;
    std::error_code ec;
    fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
    std::size_t seen = 0;
    for (; !ec && it != end; it.increment(ec)) {
        if (++seen > max_walk_entries) {
            found.notes.push_back(fmt::format("more than {} entries in the submission: the rest was not searched",
                                              max_walk_entries));
            break;
        }
        const fs::directory_entry& entry = *it;
        const std::string name = entry.path().filename().string();
        std::error_code type_ec;
        const auto status = entry.symlink_status(type_ec);
        if (fs::is_directory(status)) {
            if (skipped_folder(name)) it.disable_recursion_pending();
            continue;
        }
        auto match = by_name.find(name);
        if (match == by_name.end()) continue;
        const fs::path relative = entry.path().lexically_relative(folder);
        if (!fs::is_regular_file(status)) {
            found.notes.push_back(relative.generic_string() + " is not a regular file (a link?): ignored");
            continue;
        }
        for (std::size_t i : match->second) candidates[i].push_back(relative);
    }
    found.file.resize(set.all().size());
    found.relative.resize(set.all().size());
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        auto& c = candidates[i];
        if (c.empty()) continue;
        const Exercise& e = set.all()[i];
        std::sort(c.begin(), c.end(), [&](const fs::path& a, const fs::path& b) { return rank(e, a) < rank(e, b); });
        found.relative[i] = c.front().generic_string();
        found.file[i] = folder / c.front();
        if (c.size() > 1)
            found.notes.push_back(fmt::format("{} files named {}; graded {}", c.size(), e.file_name(), found.relative[i]));
    }
    return found;
}

// ---------------------------------------------------------------------------------------------
// Records.

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
        rec.parts.push_back({p.name, std::string(verdict_name(p.verdict)), p.score, p.max_score, p.message.in(lang)});
        if (p.diagnosis) rec.parts.back().diagnosis_id = p.diagnosis->id, rec.parts.back().diagnosis_message = p.diagnosis->message.in(lang);
    }
    return rec;
}

// Every part given the same verdict and message (missing source, unreadable submission, grader fault).
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

// ---------------------------------------------------------------------------------------------
// The run.

struct Job {
    const Submission* submission = nullptr;
    fs::path unpacked;  // the archive's folder, removed when the student is done
    Sources sources;
    StudentRecord record;
    std::size_t remaining = 0;
    Clock::time_point start;
    bool reused = false;  // unchanged since an earlier run
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
    void worker();
    void prepare(std::size_t student);
    void grade(std::size_t student, std::size_t exercise);
    // `shown_as`: the source's path inside the submission, as compiler messages name it.
    ExerciseRecord grade_program(const Exercise& e, const fs::path& source, const std::string& shown_as,
                                 std::optional<std::uint64_t> seed);
    void finish(std::size_t student);
    std::optional<StudentRecord> earlier_result(Job& job) const;
    std::string student_key(const Job& job) const;

    const ExerciseSet& set_;
    const GradeSettings& settings_;
    const std::function<void(const GradeProgress&)>& progress_;
    std::vector<Job> jobs_;
    std::unique_ptr<ProgramJail> jail_;
    fs::path cache_dir_, work_dir_, results_dir_, gradescope_dir_;
    Digest fingerprint_{};

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::pair<std::size_t, std::size_t>> ready_;  // (student, exercise)
    std::size_t next_prepare_ = 0, preparing_ = 0, finished_ = 0;
    std::mutex progress_mutex_;

    std::atomic<std::size_t> compiles_{0}, compile_hits_{0}, runs_{0};
    std::mutex time_mutex_;
    double compile_seconds_ = 0, run_seconds_ = 0, busy_seconds_ = 0;
};

// Unpacking folders of graders that were killed: their process is gone.
void sweep_work(const fs::path& work) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(work, ec)) {
        const std::string name = entry.path().filename().string();
        const std::string pid = name.substr(0, name.find('-'));
        if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
        if (std::stol(pid) != ::getpid() && !fs::exists("/proc/" + pid, ec)) fs::remove_all(entry.path(), ec);
    }
}

// Temporary files (".tmp-<pid>-...") that a killed run left in `dir`.
void sweep_temporaries(const fs::path& dir) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with(".tmp-")) continue;
        const std::string pid = name.substr(5, name.find('-', 5) - 5);
        if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
        if (std::stol(pid) != ::getpid() && !fs::exists("/proc/" + pid, ec)) fs::remove(entry.path(), ec);
    }
}

void make_private_folder(const fs::path& dir) {
    fs::create_directories(dir);
    fs::permissions(dir, fs::perms(0700));
}

// An exclusive lock (flock) on <out>/.grade-lock for as long as it lives, so two graders never
// write into one output folder; the file holds the pid of the grader that has it.
class OutputLock {
public:
    explicit OutputLock(const fs::path& out) {
        const fs::path file = out / ".grade-lock";
        fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd_ < 0) throw InputFileError(file.string() + ": cannot open the lock file: " + std::strerror(errno));
        if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            char pid[32] = {};
            const ssize_t n = ::pread(fd_, pid, sizeof pid - 1, 0);
            ::close(fd_);
            if (error != EWOULDBLOCK) throw InputFileError(file.string() + ": cannot lock: " + std::strerror(error));
            throw InputFileError(fmt::format("{}: another grader (pid {}) is writing into this folder; wait for it to "
                                             "finish, or give another --out",
                                             out.string(), n > 0 ? std::string(pid, static_cast<std::size_t>(n)) : "?"));
        }
        const std::string pid = std::to_string(::getpid());
        if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) < 0) {}  // the pid is only for the message
    }
    ~OutputLock() { ::close(fd_); }  // closing the file releases the lock
    OutputLock(const OutputLock&) = delete;
    OutputLock& operator=(const OutputLock&) = delete;

private:
    int fd_ = -1;
};

GradeReport Batch::run() {
    const auto start = Clock::now();
    jail_ = std::make_unique<ProgramJail>();
    // Grades are private: a new output folder is the grader's alone.
    if (!fs::exists(settings_.out)) make_private_folder(settings_.out);
    results_dir_ = settings_.out / "results";
    gradescope_dir_ = settings_.out / "gradescope";
    cache_dir_ = settings_.cache_dir.empty() ? settings_.out / ".cache" : settings_.cache_dir;
    fs::create_directories(results_dir_);
    if (settings_.write_gradescope) fs::create_directories(gradescope_dir_);
    make_private_folder(cache_dir_);
    make_private_folder(settings_.out / ".work");
    sweep_work(settings_.out / ".work");
    sweep_temporaries(results_dir_);
    sweep_temporaries(gradescope_dir_);
    sweep_temporaries(settings_.out);
    work_dir_ = settings_.out / ".work" / (std::to_string(::getpid()) + "-" + hex(content_hash(std::to_string(
                                                                                    Clock::now().time_since_epoch().count()))));
    fingerprint_ = run_fingerprint(set_, settings_, jail_->isolation());
    const double setup = seconds_since(start);

    const unsigned workers = std::max(1u, settings_.jobs);
    std::vector<std::thread> threads;
    for (unsigned i = 1; i < workers; ++i) threads.emplace_back([this] { worker(); });
    worker();
    for (std::thread& t : threads) t.join();
    std::error_code ec;
    fs::remove_all(work_dir_, ec);

    GradeReport report;
    report.isolation = jail_->isolation();
    for (Job& job : jobs_) {
        report.students.push_back(std::move(job.record));
        (job.reused ? report.reused : report.graded) += 1;
    }
    std::sort(report.students.begin(), report.students.end(),
              [](const StudentRecord& a, const StudentRecord& b) { return a.student < b.student; });
    const auto render_start = Clock::now();
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
    report.compiles = compiles_;
    report.compile_hits = compile_hits_;
    report.runs = runs_;
    report.compile_seconds = compile_seconds_;
    report.run_seconds = run_seconds_;
    report.wall_seconds = seconds_since(start);
    report.grader_seconds = setup + (busy_seconds_ - compile_seconds_ - run_seconds_) + seconds_since(render_start);
    return report;
}

void Batch::worker() {
    for (;;) {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return !ready_.empty() || next_prepare_ < jobs_.size() || preparing_ == 0; });
        const auto start = Clock::now();
        if (!ready_.empty()) {
            auto [student, exercise] = ready_.front();
            ready_.pop_front();
            lock.unlock();
            grade(student, exercise);
            lock.lock();
            const bool last = --jobs_[student].remaining == 0;
            lock.unlock();
            if (last) finish(student);
        } else if (next_prepare_ < jobs_.size()) {
            const std::size_t student = next_prepare_++;
            ++preparing_;
            lock.unlock();
            prepare(student);
            lock.lock();
            --preparing_;
            lock.unlock();
            wake_.notify_all();
        } else {
            return;  // nothing queued, nothing left to prepare, nobody preparing
        }
        std::lock_guard time_lock(time_mutex_);
        busy_seconds_ += seconds_since(start);
    }
}

std::string Batch::student_key(const Job& job) const {
    Digest h = fingerprint_;
    h = hash_field(h, job.submission->student);
    for (std::size_t i = 0; i < set_.all().size(); ++i) {
        h = hash_field(h, job.sources.relative[i]);
        h = hash_field(h, job.sources.file[i].empty() ? "<none>" : read_file_if_readable(job.sources.file[i]).value_or("<unreadable>"));
    }
    return hex(h);
}

std::optional<StudentRecord> Batch::earlier_result(Job& job) const {
    if (settings_.regrade) return std::nullopt;
    const auto text = read_file_if_readable(results_dir_ / (student_file_stem(job.submission->student) + ".json"));
    if (!text) return std::nullopt;
    try {
        StudentRecord earlier = student_from_json(nlohmann::json::parse(*text));
        if (earlier.key != job.record.key || earlier.student != job.submission->student) return std::nullopt;
        if (!earlier.has_grader_fault()) return earlier;
        for (const ExerciseRecord& e : earlier.exercises)
            if (e.has_grader_fault()) job.earlier_faults.insert(e.id);
        return std::nullopt;  // graded again; a fault that repeats is no longer credited
    } catch (const std::exception&) {
        return std::nullopt;  // damaged: graded again
    }
}

// A grader fault on an exercise that had one on the run before, with the same key, is reported
// as repeated and no longer credited: a fault that does not go away needs a person.
void mark_repeated_faults(StudentRecord& record, const std::set<std::string>& earlier_faults) {
    for (ExerciseRecord& e : record.exercises) {
        if (!e.has_grader_fault() || !earlier_faults.contains(e.id)) continue;
        e.fault_repeated = true;
        e.score = 0;
        for (PartRecord& p : e.parts) {
            if (p.verdict == "grader_fault") p.score = 0;
            e.score += p.score;
        }
        e.status = "failing";
    }
}

void Batch::prepare(std::size_t student) {
    Job& job = jobs_[student];
    job.start = Clock::now();
    job.record.student = job.submission->student;
    job.record.submission = job.submission->path.filename().string();
    job.record.variants = settings_.variants;
    job.record.unsandboxed = !is_real_sandbox(jail_->isolation());
    const Lang lang = settings_.lang;
    auto finish_now = [&] { finish(student); };
    try {
        fs::path folder = job.submission->path;
        if (job.submission->archive) {
            job.unpacked = work_dir_ / std::to_string(student);
            fs::create_directories(job.unpacked.parent_path());
            try {
                const Unpacked unpacked = extract_archive(job.submission->path, job.unpacked);
                if (!unpacked.skipped.empty())
                    job.record.notes.push_back(fmt::format("{} entries of the archive were not unpacked (links, devices)",
                                                           unpacked.skipped.size()));
            } catch (const ArchiveError& bad) {
                job.record.error = bad.what();
                for (const Exercise& e : set_.all())
                    job.record.exercises.push_back(whole_exercise(
                        e, Verdict::missing,
                        {"the submission could not be read: " + job.record.error, "无法读取提交：" + job.record.error}, lang));
                return finish_now();
            }
            folder = job.unpacked;
        }
        job.sources = find_sources(folder, set_);
        job.record.notes.insert(job.record.notes.end(), job.sources.notes.begin(), job.sources.notes.end());
        job.record.key = student_key(job);
        if (auto earlier = earlier_result(job)) {
            job.record = std::move(*earlier);
            job.reused = true;
            return finish_now();
        }
    } catch (const std::exception& fault) {
        job.record.exercises.clear();
        for (const Exercise& e : set_.all())
            job.record.exercises.push_back(whole_exercise(
                e, Verdict::grader_fault,
                {std::string("the grader failed to read the submission: ") + fault.what(),
                 std::string("评分程序读取提交时出错：") + fault.what()},
                lang));
        return finish_now();
    }
    job.record.exercises.resize(set_.all().size());
    {
        std::lock_guard lock(mutex_);
        job.remaining = set_.all().size();
        for (std::size_t i = 0; i < set_.all().size(); ++i) ready_.emplace_back(student, i);
    }
    wake_.notify_all();
    if (set_.all().empty()) finish(student);
}

void Batch::grade(std::size_t student, std::size_t index) {
    Job& job = jobs_[student];
    const Exercise& e = set_.all()[index];
    const Lang lang = settings_.lang;
    ExerciseRecord record;
    try {
        const fs::path& source = job.sources.file[index];
        if (source.empty()) {
            record = whole_exercise(e, Verdict::missing,
                                    {"no file named " + e.file_name() + " in the submission",
                                     "提交中没有名为 " + e.file_name() + " 的文件"},
                                    lang);
        } else {
            std::optional<std::uint64_t> seed;
            if (settings_.variants) seed = variant_seed(job.submission->student, e.id);
            record = grade_program(e, source, job.sources.relative[index], seed);
            record.source = job.sources.relative[index];
        }
    } catch (const std::exception& fault) {
        record = whole_exercise(e, Verdict::grader_fault,
                                {std::string("the grader failed: ") + fault.what(), std::string("评分程序出错：") + fault.what()},
                                lang);
        record.note = std::string("the grader failed: ") + fault.what();
    }
    job.record.exercises[index] = std::move(record);
}

ExerciseRecord Batch::grade_program(const Exercise& e, const fs::path& source, const std::string& shown_as,
                                    std::optional<std::uint64_t> seed) {
    const Lang lang = settings_.lang;
    const InputList inputs = seed ? variant_inputs(e, *seed) : e.inputs;
    std::error_code ec;
    if (::access(source.c_str(), R_OK) != 0) {  // the file's mode is the submission's: not a grader fault
        ExerciseRecord r = whole_exercise(e, Verdict::compile_error, {"the source cannot be read", "源文件无法读取"}, lang);
        r.variant = seed;
        return r;
    }
    if (fs::file_size(source, ec) > max_source_bytes) {
        ExerciseRecord r = whole_exercise(e, Verdict::compile_error, {"the source is larger than 1 MiB", "源文件超过 1 MiB"}, lang);
        r.variant = seed;
        return r;
    }
    const CompileResult build =
        compile_program(source, settings_.include_dir, cache_dir_, settings_.compile_limits, CompileWay::fast, shown_as);
    ++compiles_;
    compile_hits_ += build.cached;
    {
        std::lock_guard lock(time_mutex_);
        compile_seconds_ += build.seconds;
    }
    ExerciseResult result;
    double run_seconds = 0;
    if (!build.ok()) {
        const Verdict verdict = build.status == CompileStatus::grader_fault ? Verdict::grader_fault : Verdict::compile_error;
        result = failed_exercise(e, verdict, {build.diagnostics, build.diagnostics});
    } else if (fs::file_size(build.binary, ec) > max_binary_bytes) {
        // Copying it into the jail could fail for want of space, and a grader fault is credited.
        result = failed_exercise(e, Verdict::compile_error,
                                 {"the compiled program is larger than 64 MiB", "编译出的程序超过 64 MiB"});
    } else {
        const auto start = Clock::now();
        const RunResult run = jail_->run(build.binary, input_text(inputs), settings_.run_limits);
        run_seconds = seconds_since(start);
        ++runs_;
        {
            std::lock_guard lock(time_mutex_);
            run_seconds_ += run_seconds;
        }
        result = grade_run(e, inputs, run, settings_.run_limits, AnswerCompareOptions{settings_.reveal});
        run_seconds = run.wall_seconds;
    }
    result.variant = seed;
    result.compile_seconds = build.seconds;
    result.run_seconds = run_seconds;
    ExerciseRecord record = to_record(result, lang);
    record.compile_cached = build.cached;
    return record;
}

void Batch::finish(std::size_t student) {
    Job& job = jobs_[student];
    if (!job.reused) {
        mark_repeated_faults(job.record, job.earlier_faults);
        settle(job.record);
        job.record.seconds = seconds_since(job.start);
        const std::string stem = student_file_stem(job.record.student);
        try {
            write_file_atomically(results_dir_ / (stem + ".json"), dump_json(student_json(job.record)));
            if (settings_.write_gradescope)
                write_file_atomically(gradescope_dir_ / (stem + ".json"), dump_json(gradescope_json(job.record, settings_.lang)));
        } catch (const std::exception& e) {
            // This student's loss only: the class files still list them, and the next run grades them again.
            job.record.notes.push_back(std::string("the results file could not be written: ") + e.what());
            std::lock_guard lock(progress_mutex_);
            fmt::print(stderr, "blockcheck: {}: {}\n", printable_id(job.record.student), e.what());
        }
    }
    if (!job.unpacked.empty()) {
        std::error_code ec;
        fs::remove_all(job.unpacked, ec);
    }
    std::lock_guard lock(progress_mutex_);
    ++finished_;
    if (progress_) progress_({finished_, jobs_.size(), &job.record, job.reused});
}

// The manifest of a finished run: which students it graded, and with what.
Json manifest(const ExerciseSet& set, const GradeSettings& s, const std::vector<StudentRecord>& students) {
    Json stems = Json::array();
    for (const StudentRecord& r : students) stems.push_back(student_file_stem(r.student));
    return {{"results", stems},
            {"shard", s.shard ? Json(s.shard->text()) : Json(nullptr)},
            {"variants", s.variants},
            {"exercises", exercises_fingerprint(set)}};
}

}  // namespace

// ---------------------------------------------------------------------------------------------

Shard parse_shard(std::string_view text) {
    const auto slash = text.find('/');
    auto number = [&](std::string_view part) -> unsigned {
        if (part.empty() || part.size() > 6 || part.find_first_not_of("0123456789") != std::string_view::npos)
            throw InputFileError("--shard " + std::string(text) + ": expected K/N with 1 <= K <= N, e.g. 2/5");
        return static_cast<unsigned>(std::stoul(std::string(part)));
    };
    if (slash == std::string_view::npos)
        throw InputFileError("--shard " + std::string(text) + ": expected K/N with 1 <= K <= N, e.g. 2/5");
    Shard shard{number(text.substr(0, slash)), number(text.substr(slash + 1))};
    if (shard.index < 1 || shard.index > shard.count)
        throw InputFileError("--shard " + std::string(text) + ": expected K/N with 1 <= K <= N, e.g. 2/5");
    return shard;
}

bool in_shard(std::string_view student, const Shard& shard) {
    return leading_u64(content_hash(student)) % shard.count == shard.index - 1;
}

// Why an entry of a submissions folder is not a submission; nullopt when it is one.
std::optional<Text> not_a_submission(const std::string& name, fs::file_status status) {
    if (name.starts_with("."))
        return Text{"a hidden name (it starts with a dot)", "隐藏的名字（以点开头）"};
    if (fs::is_symlink(status)) return Text{"a link (links are not followed)", "链接（不跟随链接）"};
    if (fs::is_directory(status)) return std::nullopt;
    if (fs::is_regular_file(status) && is_archive_name(name)) return std::nullopt;
    return Text{"neither a folder nor an archive (.zip, .tar.gz, .tgz, .tar)", "既不是文件夹也不是压缩包（.zip、.tar.gz、.tgz、.tar）"};
}

std::vector<Submission> find_submissions(const std::vector<fs::path>& dirs, std::vector<IgnoredEntry>* ignored) {
    std::vector<Submission> found;
    for (const fs::path& dir : dirs) {
        if (!fs::is_directory(dir)) throw InputFileError(dir.string() + ": not a folder of submissions");
        for (const auto& entry : fs::directory_iterator(dir)) {
            const std::string name = entry.path().filename().string();
            std::error_code ec;
            const auto status = entry.symlink_status(ec);
            if (auto reason = not_a_submission(name, status)) {
                if (ignored) ignored->push_back({entry.path().string(), *reason});
            } else {
                const bool archive = !fs::is_directory(status);
                found.push_back({archive ? archive_stem(name) : name, entry.path(), archive});
            }
        }
    }
    if (ignored)
        std::sort(ignored->begin(), ignored->end(), [](const IgnoredEntry& a, const IgnoredEntry& b) { return a.path < b.path; });
    std::sort(found.begin(), found.end(), [](const Submission& a, const Submission& b) { return a.student < b.student; });
    for (std::size_t i = 1; i < found.size(); ++i)
        if (found[i].student == found[i - 1].student)
            throw InputFileError("two submissions for student '" + printable_id(found[i].student) + "': " + found[i - 1].path.string() +
                                 " and " + found[i].path.string());
    return found;
}

Limits grading_run_limits() {
    Limits limits;
    limits.cpu_seconds = 2;
    limits.wall_seconds = 5;
    limits.memory_bytes = std::size_t{512} << 20;
    limits.output_bytes = std::size_t{1} << 20;
    limits.file_bytes = std::size_t{16} << 20;
    limits.open_files = 64;
    limits.processes = 64;
    return limits;
}

GradeReport grade_submissions(const ExerciseSet& set, const std::vector<Submission>& submissions,
                              const GradeSettings& settings, const std::function<void(const GradeProgress&)>& progress) {
    if (!fs::exists(settings.out)) make_private_folder(settings.out);  // grades are private
    const OutputLock lock(settings.out);
    Batch batch(set, submissions, settings, progress);
    GradeReport report = batch.run();
    const auto start = Clock::now();
    write_class_files(settings.out, set, report.students, settings.ignored);
    write_file_atomically(settings.out / manifest_name, dump_json(manifest(set, settings, report.students)));
    report.grader_seconds += seconds_since(start);
    report.wall_seconds += seconds_since(start);
    return report;
}

void write_class_files(const fs::path& out, const ExerciseSet& set, const std::vector<StudentRecord>& students,
                       const std::vector<IgnoredEntry>& ignored) {
    std::vector<const Exercise*> exercises;
    for (const Exercise& e : set.all()) exercises.push_back(&e);
    write_file_atomically(out / "gradebook.csv", gradebook_csv(exercises, students));
    write_file_atomically(out / "junit.xml", junit_xml(students));
    write_file_atomically(out / "summary.txt", summary_text(exercises, students, ignored));
    write_file_atomically(out / "report.html", report_html(exercises, students));
}

std::vector<StudentRecord> merge_outputs(const std::vector<fs::path>& shard_outs, const fs::path& out,
                                         const ExerciseSet& set, std::vector<std::string>* warnings, Lang lang) {
    std::map<std::string, StudentRecord> students;
    std::map<std::string, fs::path> from;
    std::optional<bool> variants;
    std::set<std::string> shards_seen;
    std::set<unsigned> counts;
    const std::string exercises = exercises_fingerprint(set);
    for (const fs::path& dir : shard_outs) {
        const fs::path file = dir / manifest_name;
        if (!fs::exists(file)) throw InputFileError(dir.string() + ": no finished grade run here (no " + manifest_name + ")");
        const Json m = read_json_exact(file);
        try {
            if (m.at("exercises").get<std::string>() != exercises)
                throw InputFileError(dir.string() + ": graded with other exercise definitions than these");
            const bool v = m.at("variants").get<bool>();
            if (variants && *variants != v) throw InputFileError(dir.string() + ": graded " + (v ? "with" : "without") +
                                                                 " --variants, unlike the folders before it");
            variants = v;
            if (!m.at("shard").is_null()) {
                const std::string text = m["shard"].get<std::string>();
                if (!shards_seen.insert(text).second && warnings) warnings->push_back("shard " + text + " given twice");
                counts.insert(parse_shard(text).count);
            }
            for (const auto& name : m.contains("results") ? m["results"] : m.at("students")) {
                const fs::path result = dir / "results" / (name.get<std::string>() + ".json");
                StudentRecord record;
                try {
                    const auto text = read_file_if_readable(result);
                    if (!text) throw std::runtime_error("cannot be read");
                    record = student_from_json(nlohmann::json::parse(*text));
                } catch (const std::exception& e) {
                    throw InputFileError(result.string() + ": " + e.what());
                }
                const std::string student = record.student;
                if (auto it = students.find(student); it != students.end()) {
                    if (it->second.key != record.key)
                        throw InputFileError("student '" + printable_id(student) + "' was graded differently in " +
                                             from[student].string() + " and " + dir.string());
                    continue;
                }
                from[student] = dir;
                students.emplace(student, std::move(record));
            }
        } catch (const nlohmann::json::exception& e) {
            throw InputFileError(file.string() + ": " + e.what());
        }
    }
    if (warnings && counts.size() == 1) {
        const unsigned n = *counts.begin();
        for (unsigned k = 1; k <= n; ++k)
            if (!shards_seen.contains(std::to_string(k) + "/" + std::to_string(n)))
                warnings->push_back("shard " + std::to_string(k) + "/" + std::to_string(n) + " is missing");
    } else if (warnings && counts.size() > 1) {
        warnings->push_back("the shards were cut in different numbers of parts");
    }

    if (!fs::exists(out)) make_private_folder(out);
    const OutputLock lock(out);
    fs::create_directories(out / "results");
    fs::create_directories(out / "gradescope");
    std::vector<StudentRecord> merged;
    for (auto& [student, record] : students) {
        const fs::path source_dir = from[student];
        const std::string file = student_file_stem(student) + ".json";
        if (!fs::equivalent(source_dir, out)) {
            write_file_atomically(out / "results" / file,
                                  read_file_if_readable(source_dir / "results" / file).value_or(dump_json(student_json(record))));
            const auto gradescope = read_file_if_readable(source_dir / "gradescope" / file);
            write_file_atomically(out / "gradescope" / file, gradescope ? *gradescope : dump_json(gradescope_json(record, lang)));
        }
        merged.push_back(std::move(record));
    }
    write_class_files(out, set, merged);
    GradeSettings settings;
    settings.variants = variants.value_or(false);
    write_file_atomically(out / manifest_name, dump_json(manifest(set, settings, merged)));
    return merged;
}

}  // namespace blockcheck
