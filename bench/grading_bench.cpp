// `blockcheck bench --grading [N]`: a synthetic class whose students each write their own text of
// every program, graded with two jobs cold without the tutor, cold with it but without the error
// model's search, cold with both (empty output and cache each: the tutor's and the search's cost
// side by side) and warm (nothing changed): students per second,
// per-program compile and run medians, where the time went, the cache hit rate, the goals for a
// class of 200, and one compile taken apart into its steps.
#include "bench/grading_bench.hpp"
#include "bench/grading_figures.hpp"

#include "checker/batch/archive.hpp"
#include "checker/batch/batch.hpp"
#include "checker/common/files.hpp"
#include "checker/exercise/exercise_set.hpp"
#include "checker/compile/compile.hpp"
#include "checker/compile/compile_steps.hpp"
#include "checker/course/mistake_programs.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/run/sandbox.hpp"
#include "solutions/exercise.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <optional>
#include <regex>
#include <set>

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
            case AnswerKind::number:
            case AnswerKind::angle: value = fmt::format("{}.123457", 40 + k); break;
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

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The names a program declares as variables (`double x =`, `Matrix w;`, `int n(`), found by their
// type's name in front; names also used as members (after `.` or `->`) are left alone.
std::set<std::string> declared_names(const std::string& text) {
    static const std::regex declaration(
        R"((?:double|int|long|bool|auto|size_t|std::size_t|Matrix|std::vector<double>)&?\s+([a-z_][a-z0-9_]*)\s*[=;({,)])");
    std::set<std::string> names;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), declaration); it != std::sregex_iterator(); ++it)
        names.insert((*it)[1].str());
    for (auto it = names.begin(); it != names.end();) {
        const bool member = text.find("." + *it) != std::string::npos || text.find("->" + *it) != std::string::npos;
        it = member || *it == "main" ? names.erase(it) : std::next(it);
    }
    return names;
}

// Appends `suffix` to every whole-word use of `names` outside string and character literals and comments.
std::string rename(const std::string& text, const std::set<std::string>& names, const std::string& suffix) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == '"' || c == '\'') {  // a literal, copied whole
            std::size_t j = i + 1;
            while (j < text.size() && text[j] != c && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
            out.append(text, i, j + 1 - i);
            i = j + 1;
        } else if (text.compare(i, 2, "//") == 0) {
            const std::size_t j = std::min(text.find('\n', i), text.size());
            out.append(text, i, j - i);
            i = j;
        } else if (identifier_char(c) && (i == 0 || !identifier_char(text[i - 1]))) {
            std::size_t j = i;
            while (j < text.size() && identifier_char(text[j])) ++j;
            const std::string word = text.substr(i, j - i);
            const bool qualified = i >= 2 && text.compare(i - 2, 2, "::") == 0;
            out += names.contains(word) && !qualified ? word + suffix : word;
            i = j;
        } else {
            out += c;
            ++i;
        }
    }
    return out;
}

// The boilerplate a student writes at the top of every program, the same in all of them. Chosen
// by k % 5, as the helper is, so that a program copied from another student (k and k + 5 in
// tests/unit/insight/test_insight.cpp) keeps its includes: a fifth add <cmath> and <vector> after
// the header's include, a fifth add <algorithm> and <numeric>, a fifth start with <iostream> and
// open std after the header (next to bc: no name of bc is one of std's, and the program's own
// variables are renamed with a suffix), two fifths nothing. Student 4, the one solved student of
// the suite's class of five, has the riskiest.
struct IncludeHabit {
    const char* before_header;
    const char* after_header;
    const char* described;  // for the line about the class
};
constexpr IncludeHabit include_habits[] = {
    {"", "", "nothing"},
    {"", "#include <cmath>\n#include <vector>\n", "add <cmath> and <vector>"},
    {"", "#include <algorithm>\n#include <numeric>\n", "add <algorithm> and <numeric>"},
    {"", "", "nothing"},
    {"#include <iostream>\n", "using namespace std;\n", "start with <iostream> and open std"},
};

const IncludeHabit& include_habit(std::size_t k) { return include_habits[k % std::size(include_habits)]; }

// `text` with student k's include habit around its first include of the header (none: unchanged).
std::string with_include_habit(std::string text, std::size_t k) {
    const std::string include = "#include \"blockcheck.hpp\"\n";
    const std::size_t at = text.find(include);
    if (at == std::string::npos || (at > 0 && text[at - 1] != '\n')) return text;
    const IncludeHabit& habit = include_habit(k);
    text.insert(at + include.size(), habit.after_header);
    return text.insert(at, habit.before_header);
}

// Student k's own text of a program: its own variable names, comments, indentation, an extra
// helper of its own and its include habit (include_habit), so that no two students hand in the
// same bytes (as in a real class) while the program computes exactly what it did.
std::string personalise(const std::string& program, std::size_t k) {
    static const char* notes[] = {"my notes: check the shapes first", "to tidy up later", "second attempt, works now",
                                  "worked this out on paper first", "see lecture 7"};
    std::string text = rename(program, declared_names(program), "_" + std::to_string(k % 7 == 0 ? k : k % 97 + 1));
    const std::string indent = k % 3 == 0 ? "\t" : std::string(k % 3 == 1 ? 2 : 3, ' ');
    std::string out = fmt::format("// student {}: {}\n", k, notes[k % 5]);
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string_view line(text.data() + at, end - at);
        std::size_t spaces = 0;
        while (spaces < line.size() && line[spaces] == ' ') ++spaces;
        for (std::size_t level = 0; level < spaces / 4; ++level) out += indent;
        out.append(line.substr(spaces / 4 * 4)).append("\n");
        if (line.starts_with("using namespace"))
            out += fmt::format("[[maybe_unused]] static int attempt_{}() {{ return {}; }}\n", k, k % 5 + 1);
        at = end + 1;
    }
    return with_include_habit(out, k);
}

struct Class {
    std::size_t templates = 0, solved = 0, mixed = 0, hostile = 0, archives = 0, slips = 0;
    std::size_t habits[std::size(include_habits)] = {};  // students who wrote programs, by include habit (k % 5)
};

void put(std::map<std::string, std::string>& files, const Exercise& e, std::string text, bool nested) {
    files[nested ? e.source : e.file_name()] = std::move(text);
}

// Per exercise, the classic slips of tests/mistakes/ (the solved program with one mistake made).
std::map<std::string, std::vector<std::string>> classic_slips(const fs::path& root) {
    std::map<std::string, std::vector<std::string>> slips;
    for (const MistakeProgram& m : mistake_programs(root))
        if (m.file.extension() == ".slip") slips[m.exercise].push_back(slip_program_text(root, m.file));
    return slips;
}

// Student i of the class writes their own text of every program (see personalise): 20% hand in
// the untouched templates, 40% solve everything, 25% a mix of solved, templates and one wrong
// program (for the even ones a classic slip of tests/mistakes/ where the exercise has one, which
// the tutor names and confirms; otherwise plausible garbage), 15% solve everything but one hostile
// program. Every tenth student hands in a .tar.gz. Those who wrote programs each have their
// include habit (include_habit) in all of them.
Class write_class(const fs::path& root, const ExerciseSet& set, const fs::path& dir, std::size_t n) {
    static const char* hostile[] = {"infinite_loop", "segfault", "output_flood", "memory_hog", "abort", "stack_overflow"};
    const auto slips = classic_slips(root);
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
            const std::string templ = read_file(root / e.source);
            const std::string solved = personalise(fs::exists(solved_file) ? read_file(solved_file) : templ, i);
            const bool odd_one = x == i % all.size();
            if (kind < 4) put(files, e, templ, nested);
            else if (kind < 12) put(files, e, solved, nested);
            else if (kind < 17 && odd_one && i % 2 == 0 && slips.count(e.id)) {
                const auto& made = slips.at(e.id);
                put(files, e, personalise(made[i / 2 % made.size()], i), nested);
                ++c.slips;
            } else if (kind < 17) put(files, e, odd_one ? wrong_program(e, int(i)) : (x + i) % 2 ? solved : templ, nested);
            else put(files, e, odd_one ? read_file(root / "tests/hostile" / (std::string(hostile[i % 6]) + ".cpp")) : solved, nested);
        }
        (kind < 4 ? c.templates : kind < 12 ? c.solved : kind < 17 ? c.mixed : c.hostile) += 1;
        if (kind >= 4) ++c.habits[i % std::size(include_habits)];
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

// How many of the students who wrote programs have each include habit, in the habits' order.
nlohmann::ordered_json include_habit_counts(const Class& c) {
    nlohmann::ordered_json counts = nlohmann::ordered_json::object();
    for (std::size_t h = 0; h < std::size(include_habits); ++h) {
        const char* habit = include_habits[h].described;
        counts[habit] = counts.value(habit, std::size_t{0}) + c.habits[h];
    }
    return counts;
}

// The goals of a class of 200 on two cores, each against what this run measured.
void print_goals(const GradeReport& cold, const GradeReport& warm) {
    const double n = static_cast<double>(cold.students.size());
    const double scale = n > 0 ? 200 / n : 0;
    const Medians m = class_medians(cold);
    auto mark = [](bool met) { return met ? "met" : "NOT met"; };
    fmt::print("goals (200 distinct students, 2 jobs):\n");
    fmt::print("  cold class under 180 s        {:8.1f} s for 200 (scaled from {} students)  {}\n", cold.wall_seconds * scale,
               cold.students.size(), mark(cold.wall_seconds * scale < 180));
    fmt::print("  compile median under 0.130 s  {:8.3f} s  {}\n", m.compile, mark(m.compile < 0.13));
    fmt::print("  run median under 5 ms         {:8.1f} ms {}\n", 1000 * m.run, mark(m.run < 0.005));
    fmt::print("  warm regrade under 1 s        {:8.2f} s for 200 (scaled)  {}\n", warm.wall_seconds * scale,
               mark(warm.wall_seconds * scale < 1));
}

// Compile medians of the two ways side by side (CompileWay::classic, g++ on the program as its
// author runs it, and ::fast), over `count` solved programs in a student's own text, alternating,
// each way with its own cache warmed by one program first.
struct WaysCompared {
    std::size_t programs = 0;
    double classic = 0, fast = 0;
};

WaysCompared compare_ways(const fs::path& root, const ExerciseSet& set, const fs::path& work, std::size_t count) {
    std::vector<double> classic, fast;
    const auto& all = set.all();
    for (std::size_t x = 0; x <= std::min(count, all.size() - 1); ++x) {
        const Exercise& e = all[x];
        const fs::path solved = root / "tests/solved" / e.chapter / e.file_name();
        const fs::path dir = work / ("ways-" + std::to_string(x));
        fs::create_directories(dir);
        std::ofstream(dir / e.file_name(), std::ios::binary) << personalise(read_file(fs::exists(solved) ? solved : root / e.source), 100000 + x);
        for (CompileWay way : {CompileWay::classic, CompileWay::fast}) {
            const bool is_fast = way == CompileWay::fast;
            const CompileResult r = compile_program(dir / e.file_name(), root / "chapters", work / (is_fast ? "cache-fast" : "cache-classic"),
                                                    compiler_limits(), way);
            if (x > 0 && r.ok() && !r.cached) (is_fast ? fast : classic).push_back(r.seconds);  // x = 0 warms the cache
        }
    }
    return {classic.size(), median_of(classic), median_of(fast)};
}

// Run medians side by side: the same compiled programs (the fast way's, from compare_ways) on
// their book's inputs, alternating a jail of their own and a jail session, `rounds` times each.
struct RunsCompared {
    std::size_t runs = 0;
    double one_off = 0, session = 0;
    bool sessions = false;
};

RunsCompared compare_runs(const fs::path& root, const ExerciseSet& set, const fs::path& work, std::size_t count, std::size_t rounds) {
    const ProgramJail one_off(false), session(true);
    std::vector<double> alone, together;
    const auto& all = set.all();
    for (std::size_t x = 1; x <= std::min(count, all.size() - 1); ++x) {
        const Exercise& e = all[x];
        const fs::path source = work / ("ways-" + std::to_string(x)) / e.file_name();
        const CompileResult r = compile_program(source, root / "chapters", work / "cache-fast", compiler_limits(), CompileWay::fast);
        if (!r.ok()) continue;
        const std::string input = input_text(e.inputs);
        for (std::size_t k = 0; k < rounds; ++k) {
            alone.push_back(one_off.run(r.binary, input, Limits{}).wall_seconds);
            together.push_back(session.run(r.binary, input, Limits{}).wall_seconds);
        }
    }
    return {alone.size(), median_of(alone), median_of(together), session.sessions()};
}

// The steps of one compile, side by side (compile_steps.hpp), over the solved programs of compare_ways.
CompileStepTimes compile_steps(const fs::path& root, const ExerciseSet& set, const fs::path& work, std::size_t count) {
    std::vector<fs::path> programs;
    const auto& all = set.all();
    for (std::size_t x = 1; x <= std::min(count, all.size() - 1); ++x)
        programs.push_back(work / ("ways-" + std::to_string(x)) / all[x].file_name());
    return time_compile_steps(programs, root / "chapters", work / "cache-fast", std::clamp<std::size_t>(count, 3, 27));
}

void print_steps(const CompileStepTimes& t, const RunsCompared& runs, double load_before) {
    if (!t.failed.empty()) {
        fmt::print("one compile, step by step: not measured ({})\n", t.failed);
        return;
    }
    double load[3] = {0, 0, 0};
    ::getloadavg(load, 3);
    fmt::print("one compile, step by step ({} rounds, each step a whole process, side by side; medians; load average {:.1f} "
               "before, {:.1f} after):\n",
               t.rounds, load_before, load[0]);
    fmt::print("  compiler {}, linker {}; interface: {}\n", t.compiler, t.linker, t.interface);
    fmt::print("  g++ -c on `int main() {{}}` (the compiler's start)      {:7.3f} s\n", t.empty);
    fmt::print("  g++ -c on `#include \"blockcheck.hpp\"` + empty main   {:7.3f} s  the interface: +{:.3f} s\n", t.header,
               t.header - t.empty);
    fmt::print("    the same, the header with <cmath>'s special functions {:6.3f} s  (what a program naming one pays: +{:.3f} s)\n",
               t.header_whole, t.header_whole - t.header);
    fmt::print("  g++ -c on the program                                {:7.3f} s  its own code: +{:.3f} s\n", t.program,
               t.program - t.header);
    fmt::print("    with `#include <iostream>` after the header's: read {:.3f} s, precompiled with it {:.3f} s ({:.2f}x)\n",
               t.boilerplate_read, t.boilerplate_precompiled, t.boilerplate_read / t.boilerplate_precompiled);
    fmt::print("  link (the program's object, the header's archive)    {:7.3f} s\n", t.link);
    fmt::print("  the compile jail's start                             {:7.3f} s  (/usr/bin/true in it {:.3f} s, alone {:.3f} s)\n",
               t.jailed_true - t.bare_true, t.jailed_true, t.bare_true);
    fmt::print("  the whole compile as grading runs it                 {:7.3f} s  (sum of the steps {:.3f} s)\n", t.whole,
               t.program + t.link + t.jailed_true - t.bare_true);
    if (runs.sessions) fmt::print("  run, in a jail session                               {:7.4f} s\n", runs.session);
}

nlohmann::ordered_json steps_json(const CompileStepTimes& t) {
    return {{"rounds", t.rounds},           {"compiler", t.compiler},       {"linker", t.linker},
            {"interface", t.interface},     {"failed", t.failed},           {"empty_seconds", t.empty},
            {"header_seconds", t.header},   {"header_with_special_functions_seconds", t.header_whole},
            {"program_seconds", t.program}, {"boilerplate_read_seconds", t.boilerplate_read},
            {"boilerplate_precompiled_seconds", t.boilerplate_precompiled}, {"link_seconds", t.link},
            {"true_seconds", t.bare_true},  {"jailed_true_seconds", t.jailed_true},
            {"whole_seconds", t.whole}};
}

// The programs each compiler decided in a graded class (ExerciseRecord::compiler), and how many
// of g++'s were clang's build short of full marks first.
struct Decided {
    std::size_t clang = 0, gcc = 0, redecided = 0;
    double gcc_share() const { return clang + gcc ? double(gcc) / double(clang + gcc) : 0.0; }
};

Decided decided_by(const GradeReport& r) {
    Decided d;
    for (const StudentRecord& s : r.students)
        for (const ExerciseRecord& e : s.exercises) {
            d.clang += e.compiler == "clang";
            d.gcc += e.compiler == "g++";
            d.redecided += e.redecided;
        }
    return d;
}

bool same_scores(const GradeReport& a, const GradeReport& b) {
    bool same = a.students.size() == b.students.size();
    for (std::size_t i = 0; same && i < a.students.size(); ++i) same = a.students[i].score == b.students[i].score;
    return same;
}

// grade's two paths side by side, each the same class cold with an empty cache: g++ alone
// (--compiler gcc) and clang first, g++ deciding every program clang's build short of full marks.
// The clang path's compiles the resident service built in one graded class, and services that failed.
struct ServiceShare {
    int compiles = 0, failures = 0;
};

nlohmann::ordered_json compilers_json(const GradeReport& gcc, const GradeReport* clang, const GradeReport* processes,
                                      ServiceShare service) {
    auto path = [](const GradeReport& r) {
        const Decided d = decided_by(r);
        return nlohmann::ordered_json{{"cold_seconds", r.wall_seconds}, {"compile_median_seconds", class_medians(r).compile},
                                      {"decided_by_clang", d.clang}, {"decided_by_gcc", d.gcc},
                                      {"redecided", d.redecided}, {"gcc_share", d.gcc_share()}};
    };
    nlohmann::ordered_json j{{"gcc", path(gcc)}, {"clang", clang ? path(*clang) : nlohmann::ordered_json(nullptr)}};
    j["clang_processes"] = processes ? path(*processes) : nlohmann::ordered_json(nullptr);
    j["service_compiles"] = service.compiles;
    j["service_failures"] = service.failures;
    if (clang) j["same_scores"] = same_scores(gcc, *clang) && (!processes || same_scores(gcc, *processes));
    return j;
}

void print_compilers(const GradeReport& gcc, const GradeReport* clang, const GradeReport* processes, ServiceShare service) {
    if (!clang) {
        fmt::print("grade's paths side by side: clang++-16 is not usable here (g++ alone, as above)\n");
        return;
    }
    const Medians g = class_medians(gcc), c = class_medians(*clang);
    fmt::print("grade's paths side by side (the same class cold, empty cache each):\n");
    fmt::print("  {:<44} {:>10} {:>16} {:>18}\n", "path", "cold class", "compile median", "decided by g++");
    fmt::print("  {:<44} {:>8.1f} s {:>14.3f} s {:>17.1f}%\n", "--compiler gcc (g++ alone)", gcc.wall_seconds, g.compile, 100.0);
    auto row = [](const char* name, const GradeReport& r) {
        const Decided by = decided_by(r);
        fmt::print("  {:<44} {:>8.1f} s {:>14.3f} s {:>17.1f}%  ({} of {}; {} after clang's build lost a point)\n", name,
                   r.wall_seconds, class_medians(r).compile, 100 * by.gcc_share(), by.gcc, by.gcc + by.clang, by.redecided);
    };
    if (processes) row("--compiler clang, clang++-16 processes", *processes);
    row("--compiler clang (g++ deciding lost points)", *clang);
    fmt::print("    clang's compiles built by the resident service: {}; services failed: {}\n", service.compiles,
               service.failures);
    fmt::print("  cold class {:.2f}x, compile median {:.2f}x; the same scores every path: {}\n",
               clang->wall_seconds > 0 ? gcc.wall_seconds / clang->wall_seconds : 0.0, c.compile > 0 ? g.compile / c.compile : 0.0,
               same_scores(gcc, *clang) && (!processes || same_scores(gcc, *processes)) ? "yes" : "NO");
    if (processes)
        fmt::print("  the resident service against clang++-16 processes: cold class {:.2f}x, compile median {:.2f}x\n",
                   clang->wall_seconds > 0 ? processes->wall_seconds / clang->wall_seconds : 0.0,
                   c.compile > 0 ? class_medians(*processes).compile / c.compile : 0.0);
}

// Every student who solved everything got full marks: personalising changed no program's meaning.
bool solved_students_full(const GradeReport& r) {
    for (const StudentRecord& s : r.students) {
        const std::size_t i = static_cast<std::size_t>(std::stoul(s.student.substr(7)));
        if (i % 20 >= 4 && i % 20 < 12 && s.score != s.max_score) return false;
    }
    return true;
}

}  // namespace

std::string personalised_program(const std::string& program, std::size_t k) { return personalise(program, k); }

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
    const nlohmann::ordered_json habit_counts = include_habit_counts(c);
    std::string habits;
    for (const auto& [habit, count] : habit_counts.items())
        if (count.get<std::size_t>() > 0) habits += fmt::format("{}{} {}", habits.empty() ? "" : ", ", count.get<std::size_t>(), habit);
    if (!as_json)
        fmt::print("grading {} synthetic students, each with their own text of every program they wrote (names, comments, "
                   "indentation, and an include habit the same in all of them: {}), with 2 jobs and variants: {} untouched "
                   "templates, {} solved, {} mixed (with a wrong program: {} of them a classic slip), {} with one hostile program; "
                   "{} as .tar.gz\n",
                   n, habits.empty() ? "none wrote a program" : habits, c.templates, c.solved, c.mixed, c.slips, c.hostile, c.archives);
    std::fflush(stdout);
    // The tutor's cost side by side: the same class cold without it (verdicts alone), then cold
    // with it, each with its own empty cache and no reference run remembered.
    GradeSettings bare_settings = settings;
    bare_settings.tutor = false;
    bare_settings.out = fs::path(base) / "grades-no-tutor";
    forget_reference_runs();
    const GradeReport bare = grade_class(set, {submissions}, bare_settings);
    if (!as_json) print_class_figures("cold, no tutor    ", bare);
    std::fflush(stdout);
    // The error model's search side by side: the same class cold with the tutor but no search.
    GradeSettings no_search_settings = settings;
    no_search_settings.out = fs::path(base) / "grades-no-search";
    set_error_model_search(false);
    forget_reference_runs();
    const GradeReport no_search = grade_class(set, {submissions}, no_search_settings);
    set_error_model_search(true);
    if (!as_json) print_class_figures("cold, no search   ", no_search);
    std::fflush(stdout);
    forget_reference_runs();
    const GradeReport cold = grade_class(set, {submissions}, settings);
    const double search_ratio = no_search.wall_seconds > 0 ? cold.wall_seconds / no_search.wall_seconds : 0.0;
    if (!as_json) {
        print_class_figures("cold (empty cache)", cold);
        print_tutor_side_by_side(bare, cold);
        fmt::print("the error model's search: cold with it {:.1f} s, without it {:.1f} s: {:.2f}x\n", cold.wall_seconds,
                   no_search.wall_seconds, search_ratio);
    }
    std::fflush(stdout);
    // grade's default where clang is usable: the same class cold again, clang first
    std::optional<GradeReport> clang_cold, clang_processes;
    ServiceShare service;
    GradeSettings clang_settings = settings;
    clang_settings.compile_way = grading_way(CompilerChoice::automatic);
    if (clang_settings.compile_way == CompileWay::clang) {
        // clang++-16 processes first (the resident service switched off), then grade's default
        clang_settings.out = fs::path(base) / "grades-clang-processes";
        ::setenv("BLOCKCHECK_CLANG_SERVICE", "0", 1);
        forget_reference_runs();
        clang_processes = grade_class(set, {submissions}, clang_settings);
        ::unsetenv("BLOCKCHECK_CLANG_SERVICE");
        clang_settings.out = fs::path(base) / "grades-clang";
        const ClangServiceUse before = clang_service_use();
        forget_reference_runs();
        clang_cold = grade_class(set, {submissions}, clang_settings);
        service = {clang_service_use().compiles - before.compiles, clang_service_use().failures - before.failures};
        if (!as_json) {
            print_class_figures("cold, clang++ procs", *clang_processes);
            print_class_figures("cold, clang first ", *clang_cold);
            print_compilers(cold, &*clang_cold, &*clang_processes, service);
        }
    } else if (!as_json) {
        print_compilers(cold, nullptr, nullptr, service);
    }
    std::fflush(stdout);
    const GradeReport warm = grade_class(set, {submissions}, settings);
    if (!as_json) print_class_figures("warm (unchanged) ", warm);
    const bool same = same_scores(cold, warm) && (!clang_cold || same_scores(cold, *clang_cold)) &&
                      (!clang_processes || same_scores(cold, *clang_processes));
    const bool full = solved_students_full(cold) && (!clang_cold || solved_students_full(*clang_cold)) &&
                      (!clang_processes || solved_students_full(*clang_processes));
    const WaysCompared ways = compare_ways(root, set, fs::path(base), std::min<std::size_t>(n, 26));
    const RunsCompared runs = compare_runs(root, set, fs::path(base), std::min<std::size_t>(n, 26), 3);
    double load_before[3] = {0, 0, 0};
    ::getloadavg(load_before, 3);
    const CompileStepTimes steps = compile_steps(root, set, fs::path(base), std::min<std::size_t>(n, 26));
    if (as_json) {
        fmt::print("{}\n", nlohmann::ordered_json{{"students", n},
                                                  {"include_habits", habit_counts},
                                                  {"isolation", isolation_name(cold.isolation)},
                                                  {"cold", class_figures(cold)},
                                                  {"cold_no_tutor", class_figures(bare)},
                                                  {"tutor_ratio", bare.wall_seconds > 0 ? cold.wall_seconds / bare.wall_seconds : 0.0},
                                                  {"cold_no_search", class_figures(no_search)},
                                                  {"search_ratio", search_ratio},
                                                  {"warm", class_figures(warm)},
                                                  {"compilers", compilers_json(cold, clang_cold ? &*clang_cold : nullptr,
                                                                              clang_processes ? &*clang_processes : nullptr, service)},
                                                  {"same_scores", same},
                                                  {"solved_full_marks", full},
                                                  {"compile_ways", {{"programs", ways.programs},
                                                                    {"classic_median_seconds", ways.classic},
                                                                    {"fast_median_seconds", ways.fast}}},
                                                  {"compile_steps", steps_json(steps)},
                                                  {"run_ways", {{"runs", runs.runs},
                                                                {"sessions", runs.sessions},
                                                                {"one_off_median_seconds", runs.one_off},
                                                                {"session_median_seconds", runs.session}}}}
                               .dump(2));
    } else {
        print_goals(clang_cold ? *clang_cold : cold, warm);  // grade's default path
        fmt::print("compile, side by side on {} more programs: classic (g++ alone: the header read whole, {}) median {:.3f} s, "
                   "fast (precompiled, header prebuilt, {}) {:.3f} s: {:.2f}x\n",
                   ways.programs, linker_name(CompileWay::classic), ways.classic, linker_name(CompileWay::fast),
                   ways.fast, ways.fast > 0 ? ways.classic / ways.fast : 0.0);
        print_steps(steps, runs, load_before[0]);
        if (runs.sessions)
            fmt::print("run, side by side {} times: a jail of its own (bwrap a program) median {:.1f} ms, in a jail session "
                       "{:.1f} ms: {:.2f}x\n",
                       runs.runs, 1000 * runs.one_off, 1000 * runs.session,
                       runs.session > 0 ? runs.one_off / runs.session : 0.0);
        fmt::print("isolation: {}\nwarm scores (and clang's) equal cold scores: {}\nevery solved student has full marks: {}\n",
                   describe_isolation(cold.isolation), same ? "yes" : "NO", full ? "yes" : "NO");
    }
    return same && full ? 0 : 1;
}

}  // namespace blockcheck
