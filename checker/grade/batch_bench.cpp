// `blockcheck bench --grading [N]`: a synthetic class graded twice with two jobs, cold (empty
// output and cache) and warm (nothing changed), and where the time went.
#include "checker/grade/archive.hpp"
#include "checker/grade/batch.hpp"
#include "checker/common/files.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>

namespace blockcheck {

namespace fs = std::filesystem;

namespace {

// A program that prints an answer of the right shape but the wrong value for every part
// (`k` makes different students' wrong programs differ).
std::string wrong_program(const Exercise& e, int k) {
    std::string body;
    for (const AnswerSpec& a : e.answers) {
        std::string value;
        switch (a.kind) {
            case AnswerKind::number: value = fmt::format("{}.123457", 40 + k); break;
            case AnswerKind::integer: value = std::to_string(999 + k); break;
            case AnswerKind::vector: value = fmt::format("[{}.5, -1.25]", k); break;
            case AnswerKind::matrix: value = fmt::format("[[{}.5, 0], [0, 1]]", k); break;
            case AnswerKind::boolean: value = k % 2 ? "true" : "false"; break;
            case AnswerKind::choice: value = "Z"; break;
        }
        body += fmt::format("    std::puts(\"{} = {}\");\n", a.name, value);
    }
    return "// prints plausible but wrong answers\n#include <cstdio>\nint main() {\n" + body + "}\n";
}

struct Class {
    std::size_t templates = 0, solved = 0, mixed = 0, personalised = 0, hostile = 0, archives = 0;
};

void put(std::map<std::string, std::string>& files, const Exercise& e, std::string text, bool nested) {
    files[nested ? e.source : e.file_name()] = std::move(text);
}

// Student i of the class: 20% untouched templates, 40% solved, 25% a mix of solved, templates and
// a wrong program, 5% solved with a personal comment in one file (a source nobody else has), 10%
// solved but for one hostile program. Every tenth student hands in a .tar.gz.
Class write_class(const fs::path& root, const ExerciseSet& set, const fs::path& dir, std::size_t n) {
    static const char* hostile[] = {"infinite_loop", "segfault", "output_flood", "memory_hog", "abort", "stack_overflow"};
    Class c;
    fs::create_directories(dir);
    const auto& all = set.all();
    for (std::size_t i = 0; i < n; ++i) {
        const std::string id = fmt::format("student{:04}", i);
        const std::size_t kind = i % 20;
        const bool nested = i % 3 == 0;
        std::map<std::string, std::string> files;
        for (std::size_t x = 0; x < all.size(); ++x) {
            const Exercise& e = all[x];
            const fs::path solved_file = root / "tests/solved" / e.chapter / e.file_name();
            const std::string solved = fs::exists(solved_file) ? read_file(solved_file) : read_file(root / e.source);
            const std::string templ = read_file(root / e.source);
            if (kind < 4) put(files, e, templ, nested);
            else if (kind < 12) put(files, e, solved, nested);
            else if (kind < 17) put(files, e, x == i % all.size() ? wrong_program(e, int(i % 3)) : (x + i) % 2 ? solved : templ, nested);
            else if (kind == 17) put(files, e, x == 0 ? solved + "// " + id + "\n" : solved, nested);
            else put(files, e, x == i % all.size() ? read_file(root / "tests/hostile" / (std::string(hostile[i % 6]) + ".cpp")) : solved, nested);
        }
        (kind < 4 ? c.templates : kind < 12 ? c.solved : kind < 17 ? c.mixed : kind == 17 ? c.personalised : c.hostile) += 1;
        if (i % 10 == 9) {
            std::vector<ArchiveEntry> entries;
            for (auto& [path, text] : files) entries.push_back({id + "/" + path, text, "", false});
            write_archive(dir / (id + ".tar.gz"), entries);
            ++c.archives;
        } else {
            for (auto& [path, text] : files) {
                const fs::path file = dir / id / path;
                fs::create_directories(file.parent_path());
                std::ofstream(file, std::ios::binary) << text;
            }
        }
    }
    return c;
}

nlohmann::ordered_json figures(const GradeReport& r) {
    const double total = r.compile_seconds + r.run_seconds + r.grader_seconds;
    const double students = static_cast<double>(r.students.size());
    return {{"students", r.students.size()},
            {"graded", r.graded},
            {"reused", r.reused},
            {"wall_seconds", r.wall_seconds},
            {"students_per_second", r.wall_seconds > 0 ? students / r.wall_seconds : 0},
            {"compile_seconds", r.compile_seconds},
            {"run_seconds", r.run_seconds},
            {"grader_seconds", r.grader_seconds},
            {"grader_share", total > 0 ? r.grader_seconds / total : 0},
            {"compile_requests", r.compiles},
            {"compile_cache_hits", r.compile_hits},
            {"compile_hit_rate", r.compiles ? double(r.compile_hits) / double(r.compiles) : 1.0},
            {"programs_run", r.runs}};
}

void print_figures(const char* title, const GradeReport& r) {
    const double total = r.compile_seconds + r.run_seconds + r.grader_seconds;
    auto share = [&](double s) { return total > 0 ? 100 * s / total : 0.0; };
    fmt::print("{}: {} students in {:.2f} s = {:.1f} submissions/s ({} graded, {} unchanged)\n", title, r.students.size(),
               r.wall_seconds, r.wall_seconds > 0 ? double(r.students.size()) / r.wall_seconds : 0.0, r.graded, r.reused);
    fmt::print("  worker time {:.1f} s: compile {:.1f} s ({:.0f}%), run {:.1f} s ({:.0f}%), grader's own work {:.2f} s ({:.1f}%)\n",
               total, r.compile_seconds, share(r.compile_seconds), r.run_seconds, share(r.run_seconds), r.grader_seconds,
               share(r.grader_seconds));
    fmt::print("  compile requests {}, from the cache {} ({:.0f}%); programs run {}\n", r.compiles, r.compile_hits,
               r.compiles ? 100.0 * double(r.compile_hits) / double(r.compiles) : 100.0, r.runs);
}

}  // namespace

int grading_bench(const fs::path& root, std::size_t n, bool as_json, Lang lang) {
    const ExerciseSet set = ExerciseSet::load(root);
    std::string base = (fs::temp_directory_path() / "blockcheck-bench-grading-XXXXXX").string();
    if (!::mkdtemp(base.data())) throw std::runtime_error("cannot create a folder in the temp directory");
    struct Remove {
        fs::path path;
        ~Remove() {
            std::error_code ignored;
            fs::remove_all(path, ignored);
        }
    } remove{base};
    const fs::path submissions = fs::path(base) / "submissions";
    const Class c = write_class(root, set, submissions, n);
    GradeSettings settings;
    settings.include_dir = root / "chapters";
    settings.out = fs::path(base) / "grades";
    settings.jobs = 2;
    settings.variants = true;
    settings.lang = lang;
    const auto students = find_submissions({submissions});
    if (!as_json)
        fmt::print("grading {} synthetic submissions with 2 jobs and variants: {} untouched templates, {} solved, {} mixed "
                   "(with a wrong program), {} solved with a personal edit, {} with one hostile program; {} as .tar.gz\n",
                   n, c.templates, c.solved, c.mixed, c.personalised, c.hostile, c.archives);
    std::fflush(stdout);
    const GradeReport cold = grade_submissions(set, students, settings);
    if (!as_json) print_figures("cold (empty cache)", cold);
    std::fflush(stdout);
    const GradeReport warm = grade_submissions(set, students, settings);
    if (!as_json) print_figures("warm (unchanged) ", warm);
    bool same = cold.students.size() == warm.students.size();
    for (std::size_t i = 0; same && i < cold.students.size(); ++i) same = cold.students[i].score == warm.students[i].score;
    if (as_json) {
        fmt::print("{}\n", nlohmann::ordered_json{{"students", n},
                                                  {"isolation", isolation_name(cold.isolation)},
                                                  {"cold", figures(cold)},
                                                  {"warm", figures(warm)},
                                                  {"same_scores", same}}
                               .dump(2));
    } else {
        fmt::print("isolation: {}\nwarm scores equal cold scores: {}\n", describe_isolation(cold.isolation), same ? "yes" : "NO");
    }
    return same ? 0 : 1;
}

}  // namespace blockcheck
