// A TA's look at one student (course side): `run ID --student PATH [--variant SEED]` and
// `check [ID...] --student PATH` run a submission's programs as `grade` does — the id and the
// variant seed from the folder's or archive's name, compiled and run in the sandbox (refused
// where none starts unless --no-sandbox: exit 4, as grade) — and print what grade would record.
// The options join the student side's `run` and `check`.
#include "checker/common/cli.hpp"
#include "checker/common/files.hpp"
#include "checker/exercise/variants.hpp"
#include "checker/batch/discovery.hpp"
#include "checker/batch/detail/grade_program.hpp"
#include "checker/batch/detail/resume.hpp"
#include "checker/outputs/sandbox_policy.hpp"
#include "checker/outputs/student_id.hpp"

#include <fmt/format.h>

#include <unistd.h>

namespace blockcheck {
namespace {

namespace fs = std::filesystem;

struct ViewOptions {
    std::string student;  // the submission: a folder or an archive
    bool no_sandbox = false;
    std::string assignment, out;  // check: the points as an assignment file, or a graded --out folder, says
};

// The exercises as grade counted them: at the points of --assignment FILE or of the run graded in
// --out DIR (its manifest), else each at its own; then only `ids`, when given.
ExerciseSet graded_exercises(const ExerciseSet& all, const ViewOptions& v, const std::vector<std::string>& ids) {
    if (!v.assignment.empty() && !v.out.empty())
        throw InputFileError("--assignment and --out: give one (the points of an assignment file, or of the run graded in a folder)");
    const ExerciseSet counted = !v.assignment.empty() ? all.only_exercises(read_assignment(v.assignment).exercises)
                                : !v.out.empty()      ? all.only_exercises(graded_assignment(v.out).exercises)
                                                      : all;
    std::vector<ExerciseSet::Pick> picks;
    for (const std::string& id : ids) {
        if (!counted.find(id) && all.find(id))
            throw InputFileError(id + ": not graded in " + (v.assignment.empty() ? v.out : v.assignment));
        picks.push_back({id, std::nullopt, "check"});
    }
    return picks.empty() ? counted : counted.only_exercises(picks);
}

// One submission opened for a look: its id and folder; an archive is unpacked into a temporary
// folder, removed with the compile cache when the look ends.
class OpenedSubmission {
public:
    explicit OpenedSubmission(const fs::path& path) : submission(submission_at(path)) {
        std::string work = (fs::temp_directory_path() / "blockcheck-student-XXXXXX").string();
        if (!::mkdtemp(work.data())) throw std::runtime_error("cannot create a work folder in " + fs::temp_directory_path().string());
        work_ = work;
        cache = work_ / "cache";
        make_private_folder(cache);
        // as root, compiles run as throw-away uids that must search the cache (batch.cpp)
        if (::geteuid() == 0) fs::permissions(work_, fs::perms(0711)), fs::permissions(cache, fs::perms(0711));
        try {
            folder = submission_folder(submission, work_ / "unpacked", notes);
        } catch (const ArchiveError& bad) {
            throw InputFileError(printable_id(path.string()) + ": the submission could not be read: " + bad.what());
        }
    }
    ~OpenedSubmission() {
        std::error_code ignored;
        fs::remove_all(work_, ignored);
    }
    OpenedSubmission(const OpenedSubmission&) = delete;
    OpenedSubmission& operator=(const OpenedSubmission&) = delete;

    Submission submission;
    fs::path folder, cache;
    std::vector<std::string> notes;

private:
    fs::path work_;
};

// The misnamed files (`near_only`: those near an exercise looked at) and the notes of how the
// sources were found, one line each.
void print_remarks(const Sources& sources, const std::vector<std::string>& notes, bool near_only, Lang lang) {
    for (const MisnamedFile& m : sources.misnamed)
        if (!near_only || !m.nearest.empty()) fmt::print("  ? {}\n", misnamed_text(m, lang));
    if (sources.misnamed_more && !near_only)
        fmt::print("  ? {}\n", misnamed_more_text(sources.misnamed_more, lang));
    for (const std::string& note : notes) fmt::print("  ? {}\n", printable_text(note));
    for (const std::string& note : sources.notes) fmt::print("  ? {}\n", printable_text(note));
}

// `run --student --variant SEED` with a seed grade did not draw for this student and exercise: said
// on standard output and standard error, with the drawn one (and, when SEED is it as a reader that
// keeps 53 bits rounded it, that too), before the inputs SEED draws are run as asked.
std::string other_seed_note(const std::string& student, const std::string& id, std::uint64_t seed, std::uint64_t drawn, Lang lang) {
    const bool rounded = static_cast<double>(seed) == static_cast<double>(drawn);
    std::string note = tr_format(lang,
                                 "# note: variant {seed} is not the one grade drew for {student} on {id}: that is {drawn}; these "
                                 "are other inputs than the student's{rounded}\n",
                                 "# 注意：变体 {seed} 不是 grade 为 {student} 在 {id} 上抽取的变体（那是 {drawn}）；下面是与该学生不同的输入{rounded}\n",
                                 fmt::arg("seed", seed), fmt::arg("student", printable_id(student)), fmt::arg("id", id),
                                 fmt::arg("drawn", drawn),
                                 fmt::arg("rounded", rounded ? tr(lang, " (the seed looks rounded to a double's 53 bits: a JSON reader "
                                                                        "such as jq 1.6 or JavaScript rounds integers over 2^53)",
                                                                  "（这个种子看起来被舍入到了 double 的 53 位：jq 1.6、JavaScript "
                                                                  "等 JSON 读取器会舍入超过 2^53 的整数）")
                                                          : ""));
    fmt::print(stderr, "{}", note.substr(2));
    return note;
}

int run_student(const Context& context, const std::string& id, std::optional<std::uint64_t> variant, const ViewOptions& v) {
    const Lang lang = context.lang;
    const ExerciseSet set = ExerciseSet::load(context.root).only_exercises({{id, std::nullopt, "run"}});
    const Exercise& e = set.all().front();
    if (!sandbox_allowed(v.no_sandbox, "run --student", lang)) return no_sandbox_status;
    const OpenedSubmission opened(v.student);
    const Sources sources = find_sources(opened.folder, set);
    const std::string& student = opened.submission.student;
    const std::uint64_t drawn = student_variant_seed(e, student);  // as grade draws it
    const std::uint64_t seed = variant.value_or(drawn);
    fmt::print("# {} {} · {} · {} {}\n", tr(lang, "student", "学生"), printable_id(student), e.id, tr(lang, "variant", "变体"), seed);
    if (seed != drawn) fmt::print("{}", other_seed_note(student, e.id, seed, drawn, lang));
    print_remarks(sources, opened.notes, true, lang);
    if (sources.file.front().empty()) {
        fmt::print(stderr, "{}\n", tr_format(lang, "blockcheck: no file named {} in the submission", "blockcheck：提交中没有名为 {} 的文件",
                                             e.file_name()));
        return 1;
    }
    // read as grade reads it: beneath the submission, never through a link (submission_file.hpp)
    const SubmittedProgram program = read_program(opened.folder, sources.relative.front(), Links::refuse);
    if (!program.readable()) {
        fmt::print("{}\n", printable_text(notes_text(program.notes, lang) + program.problem.in(lang)));
        return 1;
    }
    const CompileResult build = compile_program(program, context.root / "chapters", opened.cache, compiler_limits(),
                                                CompileWay::fast, sources.relative.front());
    if (!build.ok()) {
        fmt::print("{}\n{}\n", tr(lang, "does not compile:", "无法编译："), printable_text(build.diagnostics));
        return 1;
    }
    const InputList inputs = variant_inputs(e, seed);
    const ProgramJail jail;
    const RunResult result = jail.run(build.binary, input_text(inputs), grading_run_limits());
    fmt::print("# {}\n{}", tr(lang, "input (standard input):", "输入（标准输入）："), input_text(inputs));
    fmt::print("# {}\n{}\n", tr(lang, "output (standard output):", "输出（标准输出）："), printable_text(result.out));
    if (!result.err.empty()) fmt::print("# {}\n{}\n", tr(lang, "standard error:", "标准错误："), printable_text(result.err));
    fmt::print("# {}{}{}\n", tr(lang, "isolation: ", "隔离："), describe_isolation(jail.isolation()),
               is_sandbox(jail.isolation()) ? "" : " · " + no_sandbox_meaning().in(lang));
    const bool ok = result.status == RunStatus::exited && result.exit_code == 0;
    if (!ok)
        fmt::print("# {}: {} {}\n", tr(lang, "ended", "结束"), to_string(result.status),
                   result.status == RunStatus::exited ? result.exit_code : result.signal);
    return ok ? 0 : 1;
}

// One exercise as grade recorded it: a line with its points, then each part, its note.
void print_record(const ExerciseRecord& r, Lang lang) {
    const bool full = r.score >= r.max_score - 1e-9 && r.status == "done";
    fmt::print("{} {}  {}/{}{}\n", full ? "✓" : r.status == "not_done" ? "·" : "✗", r.id, score_text(r.score), score_text(r.max_score),
               r.variant ? tr_format(lang, "  (variant {})", "（变体 {}）", *r.variant) : "");
    for (const PartRecord& p : r.parts) {
        fmt::print("  {:<14} {:<24} {}\n", p.verdict, p.name, printable_text(p.message));
        if (!p.diagnosis_message.empty()) fmt::print("  {:<14} {:<24} {}\n", "", "", printable_text(p.diagnosis_message));
    }
    if (const std::string constants = printed_constants_text(r, lang); !constants.empty())
        fmt::print("  {}\n", printable_text(constants));
    if (!r.note.empty()) fmt::print("{}\n", printable_text(r.note));
}

int check_student(const Context& context, const std::vector<std::string>& ids, bool reveal, const ViewOptions& v) {
    const Lang lang = context.lang;
    const ExerciseSet set = graded_exercises(ExerciseSet::load(context.root), v, ids);
    if (!sandbox_allowed(v.no_sandbox, "check --student", lang)) return no_sandbox_status;
    const OpenedSubmission opened(v.student);
    const Sources sources = find_sources(opened.folder, set);
    GradeSettings settings;
    settings.include_dir = context.root / "chapters";
    settings.variants = true;  // as grade: the student's own inputs
    settings.reveal = reveal;
    settings.lang = lang;
    ProgramGrader grader(settings, opened.cache);
    fmt::print("# {} {} · {}\n", tr(lang, "student", "学生"), printable_id(opened.submission.student),
               describe_isolation(grader.isolation()));
    print_remarks(sources, opened.notes, !ids.empty(), lang);
    bool all_full = true;
    for (std::size_t i = 0; i < set.all().size(); ++i) {
        // read as grade reads it: beneath the submission, never through a link (submission_file.hpp)
        const std::optional<SubmittedProgram> program =
            sources.file[i].empty() ? std::nullopt
                                    : std::optional(read_program(opened.folder, sources.relative[i], Links::refuse));
        const ExerciseRecord r = grader.grade(set.all()[i], opened.submission.student, program ? &*program : nullptr,
                                              sources.relative[i]);
        print_record(r, lang);
        all_full = all_full && r.status == "done";
    }
    return all_full ? 0 : 1;
}

}  // namespace

void add_student_view_options(CLI::App& app, Context& context) {
    auto v = std::make_shared<ViewOptions>();
    CLI::App* run = app.get_subcommand("run");
    CLI::App* check = app.get_subcommand("check");
    for (CLI::App* cmd : {run, check}) {
        cmd->add_option("--student", v->student,
                        "a student's submission (folder or .zip/.tar.gz): run its program as grade does, with its id's inputs");
        cmd->add_flag("--no-sandbox", v->no_sandbox, "with --student: run even where no sandbox works");
    }
    check->add_option("--assignment", v->assignment,
                      "with --student: count the exercises at this assignment's points, as grade --assignment FILE did");
    check->add_option("--out", v->out, "with --student: count them at the points of the run graded in this folder (grade's --out)");
    // After the student side's callbacks: a command given --student runs the submission instead.
    app.final_callback([&context, v, run, check] {
        if (v->student.empty()) {
            if (v->no_sandbox) throw CLI::ValidationError("--no-sandbox", "goes with --student");
            if (!v->assignment.empty() || !v->out.empty()) throw CLI::ValidationError("--assignment/--out", "go with --student");
            return;
        }
        if (run->parsed()) {
            const std::string id = run->get_option("id")->as<std::string>();
            std::optional<std::uint64_t> variant;
            if (run->count("--variant")) variant = run->get_option("--variant")->as<std::uint64_t>();
            context.run = [&context, v, id, variant] { return run_student(context, id, variant, *v); };
        } else if (check->parsed()) {
            if (check->count("--variant") || check->count("--variants"))
                throw CLI::ValidationError("--student", "checks the student's own inputs, as grade does: no --variant(s)");
            const auto ids = check->count("ids") ? check->get_option("ids")->as<std::vector<std::string>>() : std::vector<std::string>{};
            const bool reveal = check->count("--reveal") > 0;
            context.run = [&context, v, ids, reveal] { return check_student(context, ids, reveal, *v); };
        }
    });
}

}  // namespace blockcheck
