// `blockcheck grade DIR...`: a class's submissions into a gradebook; `--merge` combines shard
// outputs; `--gradescope` is Gradescope's run_autograder step for one submission.
#include "checker/batch/batch.hpp"
#include "checker/outputs/sandbox_policy.hpp"
#include "checker/batch/merge.hpp"
#include "checker/outputs/student_id.hpp"
#include "checker/common/cli.hpp"
#include "checker/common/files.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/course/assignment.hpp"
#include "checker/outputs/gradescope.hpp"
#include "checker/outputs/lms.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <thread>

namespace blockcheck {
namespace {

namespace fs = std::filesystem;

struct GradeOptions {
    std::vector<std::string> dirs;
    ExerciseChoice choice;  // --chapter, --assignment, --exercises
    std::string out = "grades", cache, shard;
    std::string lms, roster, assignment = "blockcheck";  // --lms, --roster, --lms-assignment
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    bool variants = false, merge = false, gradescope = false, reveal = false, regrade = false, follow_through = false;
    bool accept_near_names = false;  // grade a misnamed file as its nearest exercise
    bool book_inputs_only = false;   // a class graded on the book's inputs, not per-student ones
    bool no_sandbox = false;  // grade even where no sandbox works (sandbox_policy.hpp)
    std::string compiler = "auto";  // --compiler gcc|clang|auto (docs/compile-speed.md)
    double cpu = 2, wall = 5, memory_mib = 512, compile_wall = 30;
};

std::string env_or(const char* name, const char* fallback) {
    const char* value = std::getenv(name);
    return value && *value ? value : fallback;
}

// Parts not correct, by verdict: "2 wrong, 1 compile_error".
std::string verdict_counts(const StudentRecord& s) {
    std::map<std::string, int> counts;
    for (const ExerciseRecord& e : s.exercises)
        for (const PartRecord& p : e.parts)
            if (p.verdict != "correct") ++counts[p.verdict];
    std::string text;
    for (const auto& [verdict, n] : counts) text += fmt::format("{}{} {}", text.empty() ? "" : ", ", n, verdict);
    return text;
}

// "1:05", "12:00", "1:02:03".
std::string clock_text(double seconds) {
    const auto total = static_cast<long>(seconds + 0.5);
    if (total >= 3600) return fmt::format("{}:{:02}:{:02}", total / 3600, total / 60 % 60, total % 60);
    return fmt::format("{}:{:02}", total / 60, total % 60);
}

// A line per student, or on a terminal one progress bar redrawn in place: students done of all,
// time elapsed, time left (at the pace so far) and the student who just finished.
class ProgressPrinter {
public:
    ProgressPrinter(bool terminal, Lang lang) : terminal_(terminal), lang_(lang), start_(std::chrono::steady_clock::now()) {}

    void operator()(const GradeProgress& p) {
        const StudentRecord& s = *p.record;
        if (terminal_) {
            const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
            const double left = p.done ? elapsed / double(p.done) * double(p.total - p.done) : 0;
            const std::size_t width = 24, filled = p.total ? p.done * width / p.total : width;
            fmt::print("\r[{}{}] {} · {:.24}\x1b[K", std::string(filled, '#'), std::string(width - filled, '.'),
                       tr_format(lang_, "{done}/{total} students · {elapsed} elapsed · ~{left} left",
                                 "{done}/{total} 名学生 · 已用 {elapsed} · 剩余约 {left}", fmt::arg("done", p.done),
                                 fmt::arg("total", p.total), fmt::arg("elapsed", clock_text(elapsed)),
                                 fmt::arg("left", clock_text(left))),
                       printable_id(s.student));
            if (p.done == p.total) fmt::print("\n");
        } else {
            std::string detail = !s.error.empty() ? tr_format(lang_, "unreadable: {error}", "无法读取：{error}", fmt::arg("error", s.error))
                                 : p.reused      ? std::string(tr(lang_, "unchanged", "未改动"))
                                                 : verdict_counts(s);
            fmt::print("[{:>{}}/{}] {:<20} {:>6}/{:<4} {}{}\n", p.done, std::to_string(p.total).size(), p.total,
                       printable_id(s.student, 40), score_text(s.score), score_text(s.max_score), printable_id(detail),
                       p.reused ? "" : fmt::format("  ({:.1f} s)", s.seconds));
        }
        std::fflush(stdout);
    }

private:
    bool terminal_;
    Lang lang_;
    std::chrono::steady_clock::time_point start_;
};

GradeSettings settings_from(const Context& context, const GradeOptions& o) {
    if (o.jobs < 1) throw InputFileError("--jobs must be at least 1");
    if (!(o.cpu > 0) || !(o.wall > 0) || !(o.memory_mib > 0) || !(o.compile_wall > 0))
        throw InputFileError("--cpu, --wall, --memory and --compile-wall must be positive");
    GradeSettings s;
    s.include_dir = context.root / "chapters";
    s.out = o.out;
    s.cache_dir = o.cache;
    s.jobs = o.jobs;
    s.variants = o.variants;
    s.reveal = o.reveal;
    s.follow_through = o.follow_through;
    s.regrade = o.regrade;
    s.accept_near_names = o.accept_near_names;
    try {
        s.compile_way = grading_way(o.compiler == "gcc"     ? CompilerChoice::gcc
                                    : o.compiler == "clang" ? CompilerChoice::clang
                                                            : CompilerChoice::automatic);
    } catch (const std::invalid_argument& unusable) {
        throw InputFileError(unusable.what());
    }
    s.lang = context.lang;
    s.run_limits.cpu_seconds = o.cpu;
    s.run_limits.wall_seconds = o.wall;
    s.run_limits.memory_bytes = static_cast<std::size_t>(o.memory_mib * (1 << 20));
    s.compile_limits.wall_seconds = o.compile_wall;
    s.compile_limits.cpu_seconds = std::min(s.compile_limits.cpu_seconds, o.compile_wall);
    if (!o.shard.empty()) s.shard = parse_shard(o.shard);
    return s;
}

void print_report(const GradeReport& r, const fs::path& out, Lang lang) {
    // Two whole sentences per language: with and without unreadable submissions.
    const bool unreadable = r.bad_submissions > 0;
    const char* en = unreadable ? "graded: {students} students ({graded} graded, {reused} unchanged, {unreadable} unreadable) "
                                  "in {seconds:.1f} s; gradebook: {gradebook}"
                                : "graded: {students} students ({graded} graded, {reused} unchanged) in {seconds:.1f} s; "
                                  "gradebook: {gradebook}";
    const char* zh = unreadable ? "评分完成：{students} 名学生（已评分 {graded}，未改动 {reused}，无法读取 {unreadable}），"
                                  "用时 {seconds:.1f} 秒；成绩表：{gradebook}"
                                : "评分完成：{students} 名学生（已评分 {graded}，未改动 {reused}），用时 {seconds:.1f} 秒；"
                                  "成绩表：{gradebook}";
    fmt::print("{}\n", tr_format(lang, en, zh, fmt::arg("students", r.students.size()), fmt::arg("graded", r.graded),
                                 fmt::arg("reused", r.reused), fmt::arg("unreadable", r.bad_submissions),
                                 fmt::arg("seconds", r.wall_seconds), fmt::arg("gradebook", (out / "gradebook.csv").string())));
    if (r.repeated_grader_faults)
        fmt::print(stderr, "{}\n", tr(lang, "blockcheck: the grader failed again where it failed on the run before (see summary.txt); "
                                             "those parts are no longer credited: the grader or the machine needs fixing",
                                       "blockcheck：评分程序在上次出错的地方再次出错（见 summary.txt）；这些部分不再记分："
                                       "需要修复评分程序或机器"));
    else if (r.grader_faults)
        fmt::print(stderr, "{}\n", tr(lang, "blockcheck: the grader failed on some programs (see summary.txt); run again to grade them",
                                       "blockcheck：评分程序在部分程序上出错（见 summary.txt）；再运行一次即可重新评分"));
}

// --lms and --roster, read and checked before any grading starts.
struct LmsRequest {
    Lms lms;
    std::optional<Roster> roster;
};

std::optional<LmsRequest> lms_request(const GradeOptions& o) {
    if (o.lms.empty()) {
        if (!o.roster.empty()) throw InputFileError("--roster maps students for --lms: give --lms canvas|moodle|blackboard too");
        return std::nullopt;
    }
    LmsRequest request{parse_lms(o.lms), std::nullopt};
    if (!o.roster.empty()) {
        request.roster = read_roster(o.roster);
        check_roster_for(*request.roster, request.lms);
    }
    return request;
}

// OUT/lms-<name>.csv, and the students the roster and the results do not share, on stderr.
void write_lms_file(const LmsRequest& request, const ExerciseSet& set, const std::vector<StudentRecord>& students,
                    const GradeOptions& o, Lang lang) {
    double points = 0;
    for (const Exercise& e : set.all()) points += e.max_score();
    const LmsFile file = lms_file(request.lms, students, points, o.assignment, request.roster ? &*request.roster : nullptr);
    const fs::path path = fs::path(o.out) / fmt::format("lms-{}.csv", lms_name(request.lms));
    write_file_atomically(path, file.csv);
    fmt::print("{} {}\n", tr(lang, "LMS import file:", "LMS 导入文件："), path.string());
    auto list = [](const std::vector<std::string>& ids) {
        std::string text;
        for (const std::string& id : ids) text += (text.empty() ? "" : ", ") + printable_id(id);
        return text;
    };
    if (!file.unmatched_submissions.empty())
        fmt::print(stderr, "blockcheck: {}\n",
                   fmt::format(fmt::runtime(tr(lang, "{} graded submissions are not in the roster (left out of the import): {}",
                                               "{} 份已评分的提交不在名单中（未写入导入文件）：{}")),
                               file.unmatched_submissions.size(), list(file.unmatched_submissions)));
    if (!file.roster_without_result.empty())
        fmt::print(stderr, "blockcheck: {}\n",
                   fmt::format(fmt::runtime(tr(lang, "{} students of the roster have no graded submission (left out): {}",
                                               "名单中有 {} 名学生没有已评分的提交（未写入）：{}")),
                               file.roster_without_result.size(), list(file.roster_without_result)));
}

// The entries that are not submissions, then what is about to be graded.
void print_found(const ClassFound& found, const GradeSettings& settings, Lang lang) {
    for (const IgnoredEntry& entry : *found.ignored)
        fmt::print(stderr, "{}\n", tr_format(lang, "blockcheck: not a submission (ignored): {file}: {reason}",
                                              "blockcheck：不是提交（已忽略）：{file}：{reason}", fmt::arg("file", printable_id(entry.path)),
                                              fmt::arg("reason", entry.reason.in(lang))));
    // The shard and the variants are clauses of their own, each a whole phrase in each language.
    const std::string shard = settings.shard ? tr_format(lang, " (shard {shard} of {all})", "（分片 {shard}，共 {all} 名）",
                                                         fmt::arg("shard", settings.shard->text()), fmt::arg("all", found.all))
                                             : "";
    const std::string variants = settings.variants ? std::string(tr(lang, ", variant inputs", "，使用变体输入")) : "";
    fmt::print("{}\n", tr_format(lang, "grading {students} students{shard} with {jobs} jobs{variants}",
                                 "评分：{students} 名学生{shard}，并行 {jobs} 个任务{variants}", fmt::arg("students", found.chosen),
                                 fmt::arg("shard", shard), fmt::arg("jobs", settings.jobs), fmt::arg("variants", variants)));
    std::fflush(stdout);
}

int grade(const Context& context, GradeOptions o) {
    o.variants = !o.book_inputs_only;  // a class gets inputs of its own per student unless told otherwise
    const ExerciseSet set = chosen_exercises(ExerciseSet::load(context.root), o.choice);
    if (o.dirs.empty()) throw InputFileError("grade: give the folders of submissions (blockcheck grade DIR... --out DIR)");
    const std::optional<LmsRequest> lms = lms_request(o);
    GradeSettings settings = settings_from(context, o);
    if (!sandbox_allowed(o.no_sandbox, "grade", context.lang)) return no_sandbox_status;
    const Lang lang = context.lang;
    ProgressPrinter printer(::isatty(STDOUT_FILENO) != 0, lang);
    ClassHooks hooks;
    hooks.found = [&](const ClassFound& found) { print_found(found, settings, lang); };
    hooks.progress = [&](const GradeProgress& p) { printer(p); };
    const GradeReport report = grade_class(set, std::vector<fs::path>(o.dirs.begin(), o.dirs.end()), settings, hooks);
    fmt::print("{}\n", tr_format(lang, "isolation: {how}", "隔离：{how}", fmt::arg("how", describe_isolation(report.isolation))));
    print_report(report, settings.out, lang);
    if (lms) write_lms_file(*lms, set, report.students, o, lang);
    if (!is_sandbox(report.isolation)) {
        fmt::print(stderr, "blockcheck: {}\n", no_sandbox_meaning().in(lang));
        if (!o.no_sandbox) return no_sandbox_status;  // the sandbox probed at the start stopped working
    }
    return report.grader_faults ? 1 : 0;
}

int merge(const Context& context, const GradeOptions& o) {
    const ExerciseSet set = chosen_exercises(ExerciseSet::load(context.root), o.choice);
    if (o.dirs.empty()) throw InputFileError("grade --merge: give the output folders of the shards");
    const std::optional<LmsRequest> lms = lms_request(o);
    std::vector<std::string> warnings;
    const auto students = merge_outputs(std::vector<fs::path>(o.dirs.begin(), o.dirs.end()), o.out, set, &warnings, context.lang);
    for (const std::string& w : warnings) fmt::print(stderr, "blockcheck: {}\n", w);
    fmt::print("{}\n", tr_format(context.lang, "merged {students} students from {outputs} outputs into {out}: {gradebook}",
                                 "已合并 {students} 名学生，来自 {outputs} 个输出，写入 {out}：{gradebook}",
                                 fmt::arg("students", students.size()), fmt::arg("outputs", o.dirs.size()), fmt::arg("out", o.out),
                                 fmt::arg("gradebook", (fs::path(o.out) / "gradebook.csv").string())));
    if (lms) write_lms_file(*lms, set, students, o, context.lang);
    return 0;
}

int gradescope(const Context& context, const GradeOptions& o) {
    const ExerciseSet set = chosen_exercises(ExerciseSet::load(context.root), o.choice);
    const fs::path submission = env_or("BLOCKCHECK_GRADESCOPE_SUBMISSION", "/autograder/submission");
    const fs::path results = env_or("BLOCKCHECK_GRADESCOPE_RESULTS", "/autograder/results/results.json");
    const fs::path metadata = env_or("BLOCKCHECK_GRADESCOPE_METADATA", "/autograder/submission_metadata.json");
    if (!fs::is_directory(submission)) throw InputFileError(submission.string() + ": no submission folder here");
    if (!sandbox_allowed(o.no_sandbox, "grade --gradescope", context.lang)) {
        fs::create_directories(results.parent_path());
        write_file_atomically(results, dump_json(gradescope_refusal(context.lang)));
        return no_sandbox_status;
    }
    std::string work = (fs::temp_directory_path() / "blockcheck-gradescope-XXXXXX").string();
    if (!::mkdtemp(work.data())) throw std::runtime_error("cannot create a work folder in " + fs::temp_directory_path().string());
    struct Remove {
        fs::path path;
        ~Remove() {
            std::error_code ignored;
            fs::remove_all(path, ignored);
        }
    } remove{work};
    std::string metadata_problem;
    const std::vector<Submission> one{{gradescope_submitter(metadata, &metadata_problem), submission, false}};
    if (!metadata_problem.empty())  // the grader's log (stdout_visibility: hidden); the submission is graded all the same
        fmt::print(stderr, "blockcheck: {}\n",
                   tr_format(context.lang, "{problem}; graded as 'submission' (its variants seeded by that name)",
                             "{problem}；按 'submission' 评分（变体以此名为种子）", fmt::arg("problem", metadata_problem)));
    // One run on the given inputs; with --variants a second on the book's, as visible feedback.
    auto graded_with = [&](bool variants) {
        GradeOptions options = o;
        options.variants = variants;
        options.out = (fs::path(work) / (variants ? "variants" : "book")).string();
        options.cache = (fs::path(work) / "cache").string();
        return grade_submissions(set, one, settings_from(context, options)).students.front();
    };
    const StudentRecord s = graded_with(o.variants);
    const std::optional<StudentRecord> book = o.variants ? std::optional(graded_with(false)) : std::nullopt;
    fs::create_directories(results.parent_path());
    write_file_atomically(results, dump_json(gradescope_results(s, book ? &*book : nullptr, context.lang)));
    fmt::print("{}\n", tr_format(context.lang, "{student}: {score}/{max} points; {results}", "{student}：{score}/{max} 分；{results}",
                                 fmt::arg("student", printable_id(s.student)), fmt::arg("score", score_text(s.score)),
                                 fmt::arg("max", score_text(s.max_score)), fmt::arg("results", results.string())));
    return 0;
}

}  // namespace

void add_grade_command(CLI::App& app, Context& context) {
    auto o = std::make_shared<GradeOptions>();
    CLI::App* cmd = app.add_subcommand("grade", "grade a batch of submissions (folders or .zip/.tar.gz, one per student) into a gradebook");
    cmd->add_option("dirs", o->dirs, "folders of submissions (with --merge: the output folders of the shards)");
    cmd->add_option("--out", o->out, "where the gradebook, results/, junit.xml, gradescope/, summary.txt and report.html go")
        ->capture_default_str();
    cmd->add_option("--jobs,-j", o->jobs, "programs compiled and run at once (default: the number of cores)");
    add_exercise_choice(cmd, o->choice);  // give the shards and --merge the same
    cmd->add_flag("--variants", o->variants,
                  "give each student inputs of their own, seeded by student id and exercise: a class gets them by default; "
                  "with --gradescope only when given");
    cmd->add_flag("--book-inputs-only", o->book_inputs_only, "grade a class on the book's inputs only (the old behaviour)");
    cmd->add_option("--shard", o->shard, "grade only share K of N of the students (by a stable hash of the id), e.g. 2/5");
    cmd->add_flag("--merge", o->merge, "combine the output folders of --shard runs into --out");
    cmd->add_flag("--gradescope", o->gradescope,
                  "Gradescope's run_autograder step: grade /autograder/submission into /autograder/results/results.json");
    cmd->add_option("--lms", o->lms, "also write OUT/lms-<name>.csv, the gradebook import file of canvas, moodle or blackboard");
    cmd->add_option("--roster", o->roster,
                    "CSV mapping submission ids to the LMS's user identifiers (columns: docs/platforms.md); default: the ids themselves");
    cmd->add_option("--lms-assignment", o->assignment, "the assignment's column name in the LMS file")->capture_default_str();
    cmd->add_flag("--reveal", o->reveal, "show the expected value of wrong answers in the results");
    cmd->add_flag("--accept-near-names", o->accept_near_names,
                  "grade a *.cpp file named after no exercise as the exercise its name is nearest (kv_cache_size.cpp as "
                  "kv_cache_sizes.cpp) when that exercise has no file of its own; by default such files are listed, not graded");
    cmd->add_flag("--follow-through", o->follow_through,
                  "credit a step computed correctly from the student's own wrong earlier values (reported either way)");
    cmd->add_flag("--regrade", o->regrade, "grade every student again, even when nothing changed");
    cmd->add_option("--cache", o->cache, "folder of compiled programs, shared between runs (default: OUT/.cache)");
    cmd->add_option("--cpu", o->cpu, "CPU seconds a program may use")->capture_default_str();
    cmd->add_option("--wall", o->wall, "seconds a program may run")->capture_default_str();
    cmd->add_option("--memory", o->memory_mib, "MiB of memory a program may map")->capture_default_str();
    cmd->add_option("--compile-wall", o->compile_wall, "seconds the compiler may take on one program")->capture_default_str();
    cmd->add_option("--compiler", o->compiler,
                    "build with gcc alone, or with clang first and g++ deciding every program clang's build does not give "
                    "full marks (results name the compiler that decided); auto: clang where clang++-16 is installed")
        ->check(CLI::IsMember({"gcc", "clang", "auto"}))
        ->capture_default_str();
    cmd->add_flag("--no-sandbox", o->no_sandbox,
                  "grade even where no sandbox works (programs then run under resource limits only; every output says so)");
    cmd->footer(
        "Outputs: gradebook.csv, results/<student>.json, junit.xml, gradescope/<student>.json, summary.txt,\n"
        "report.html, insight.json and insight.csv (what the class got wrong: `blockcheck insight OUT`).\n"
        "A student whose sources, inputs and grader are unchanged since the last run into the same --out is not\n"
        "graded again; an interrupted run picks up where it stopped. Exit 0 when the gradebook is written, 1 when\n"
        "the grader failed on some program (run again), 2 for bad usage, 4 when no sandbox works here and\n"
        "--no-sandbox was not given (nothing is graded; docs/sandbox.md says what the machine needs).\n"
        "--gradescope reads BLOCKCHECK_GRADESCOPE_SUBMISSION, _RESULTS and _METADATA when set, instead of the\n"
        "/autograder paths. BLOCKCHECK_GRADE_ISOLATION=bubblewrap_uid|bubblewrap|uid_only|limits_only forces an isolation.");
    cmd->callback([&context, o] {
        context.run = [&context, o] {
            if (o->gradescope) return gradescope(context, *o);
            if (o->merge) return merge(context, *o);
            return grade(context, *o);
        };
    });
}

}  // namespace blockcheck
