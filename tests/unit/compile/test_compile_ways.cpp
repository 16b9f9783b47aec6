// The differential test of the two ways to compile (CompileWay::fast against ::classic): over the
// solved programs, the hostile corpus and mistakes generated from solved programs, every
// program gets the same verdicts, part by part, whichever way it was built. The suite runs a
// sample (a quarter of the solved programs, a third of the hostile ones, every mistake on one
// exercise); the whole corpus, about 300 compiles, is skipped there and run by
// `./blockcheck test --long` (its ctest entry long_unit_sweeps runs the "(full sweep)" cases).
// Each mistake also gets what it gets compiled alone, and the last case compiles a few of them
// with a plain g++, as their student would, independently of either way.
#include "checker/exercise/exercise_set.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/compile/compile.hpp"
#include "checker/run/process.hpp"
#include "checker/run/sandbox.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

const fs::path source_dir = BLOCKCHECK_SOURCE_DIR;

std::string read_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// What a mistake program gets compiled alone (plain g++; the last test case checks a few), the
// same whichever solved program it was applied to.
enum class Alone { compile_error, full_marks, crashes };

struct Case {
    std::string name;     // where it came from, for the failure message
    std::string file;     // the file name it is compiled under
    std::string text;
    const Exercise* exercise;
    std::optional<Alone> alone;  // for a mistake, what it gets compiled alone
};

// What a program earned, without the messages (the linkers word their errors differently):
// "compile_error", or how the run ended and each part's verdict and score.
std::string outcome(const Case& c, CompileWay way, const fs::path& work, const fs::path& cache, const ProgramJail& jail) {
    const fs::path dir = work / (c.name + (way == CompileWay::fast ? "-fast" : "-classic"));
    fs::create_directories(dir);
    std::ofstream(dir / c.file, std::ios::binary) << c.text;
    Limits compile_limits = compiler_limits();
    compile_limits.wall_seconds = compile_limits.cpu_seconds = 20;
    const CompileResult built = compile_program(dir / c.file, source_dir / "chapters", cache, compile_limits, way);
    if (!built.ok()) return "compile_error";
    Limits limits;
    limits.cpu_seconds = 1;
    limits.wall_seconds = 2;
    const RunResult run = jail.run(built.binary, input_text(c.exercise->inputs), limits);
    const ExerciseResult graded = run.status == RunStatus::exited && run.exit_code == 0
                                      ? grade_output(*c.exercise, c.exercise->inputs, run.out, AnswerCompareOptions{})
                                      : failed_exercise(*c.exercise, verdict_of_end(run.status), {});
    // How a timeout ended (the CPU limit's SIGXCPU or the wall clock's SIGKILL) depends on the
    // machine's load, not on how the program was compiled: only the status counts there.
    std::string text = std::string(to_string(run.status));
    // Nor how a flood was stopped (the cap's kill, or the pipe closed under it: SIGPIPE, exit 141).
    if (run.status != RunStatus::timed_out && run.status != RunStatus::output_limit)
        text += " " + std::to_string(run.exit_code) + " " + std::to_string(run.signal);
    text += ":";
    for (const PartResult& p : graded.parts) text += " " + p.name + "=" + std::string(verdict_name(p.verdict)) + "/" + std::to_string(p.score);
    return text;
}

// Every part of the outcome is correct.
bool all_correct(const std::string& outcome) {
    std::size_t parts = 0, right = 0;
    for (auto at = outcome.find('='); at != std::string::npos; at = outcome.find('=', at + 1)) {
        ++parts;
        right += outcome.compare(at, 9, "=correct/") == 0;
    }
    return parts > 0 && parts == right;
}

// `text` with `line` inserted as a line of its own before the first line starting with `anchor`
// (or, with `after`, after that line); before the last `}` when `anchor` is empty.
std::string with_line(std::string text, const std::string& anchor, const std::string& line, bool after = false) {
    std::size_t at = anchor.empty() ? text.rfind('}') : text.find("\n" + anchor);
    if (at == std::string::npos) throw std::runtime_error("no line starting with '" + anchor + "' in a solved program");
    if (!anchor.empty()) ++at;
    if (after) at = text.find('\n', at) + 1;
    return text.insert(at, line + "\n");
}

struct CompileMistake {
    std::string kind, text;
    Alone alone;
};

// The mistakes a student makes (and a few a hostile one does), each applied to a solved program
// (every solved program has the header's include line, `using namespace bc;` and `int main() {`).
// From header_twice_plain on they probe where a precompiled preamble (the leading #include lines
// precompiled as one header) or a header precompiled without <bits/specfun.h> could give a
// verdict the program compiled alone does not get.
std::vector<CompileMistake> mistakes(const std::string& solved) {
    const std::string include = "#include \"blockcheck.hpp\"";
    const auto at = solved.find(include);
    auto before_include = [&](const std::string& text) { return with_line(solved, include, text); };
    auto after_include = [&](const std::string& text) { return with_line(solved, include, text, true); };
    auto before_main = [&](const std::string& text) { return with_line(solved, "int main", text); };
    auto before_end = [&](const std::string& text) { return with_line(solved, "", text); };
    // <cassert> after the header, `code` before main, and main calling the probe() it defines.
    auto cassert_around = [&](const std::string& code) {
        return with_line(with_line(after_include("#include <cassert>"), "int main", code), "", "    probe();");
    };
    std::string no_semicolon = solved;
    no_semicolon.erase(no_semicolon.find(";\n", at), 1);
    std::string in_angles = solved;
    in_angles.replace(at, include.size(), "#include <blockcheck.hpp>");
    constexpr Alone error = Alone::compile_error, full = Alone::full_marks;
    return {
        {"no_header", solved.substr(0, at) + solved.substr(at + include.size()), error},
        {"macro_before_header", before_include("#define double float"), error},
        {"macro_after_comment", before_include("/* mine */ #define double float"), error},
        {"digraph_macro", before_include("%:define double float"), error},
        {"redefines_header_function", solved + "namespace bc { void answer_choice(const char*, const char*) {} }\n", error},
        {"redefines_inline", solved + "namespace bc { inline void undefined(const char*) {} }\n", error},
        {"defines_qualified", solved + "void bc::undefined(const char*) {}\n", error},
        {"header_twice", solved + "#undef BLOCKCHECK_STUDENT_HEADER\n#include \"blockcheck.hpp\"\n", error},
        {"missing_semicolon", no_semicolon, error},
        {"extra_answer", before_end("    answer(\"not_an_answer\", 1.5);"), full},
        {"text_answer", before_end("    answer(\"text\", \"hello\");"), error},
        {"global_initialiser", before_include("#include <cstdio>\nstatic int early = (std::puts(\"early = 1\"), 0);"), full},
        {"crash_at_end", before_end("    std::abort();"), Alone::crashes},
        {"own_std_overload", solved + "namespace std { double sqrt(int) { return 0; } }\n", full},
        // the header's include line twice, no #undef: its guard makes the second a no-op
        {"header_twice_plain", after_include(include), full},
        // a standard header before the header: the header is not the first of the leading includes
        {"std_header_first", before_include("#include <vector>"), full},
        // the usual boilerplate after the header: <iostream>, <algorithm>, std and bc both opened
        {"student_boilerplate", after_include("#include <iostream>\n#include <algorithm>\nusing namespace std;"), full},
        // an #include after code, outside the leading run of includes, and used
        {"include_after_code", with_line(before_main("#include <numeric>"), "", "    if (std::gcd(12L, 18L) != 6) return 1;"), full},
        // <cassert> (no include guard) in the leading includes and again after a failing assert: it aborts
        {"cassert_twice", cassert_around("static void probe() { assert(1 + 1 == 3); }\n#include <cassert>"), Alone::crashes},
        // NDEBUG defined before <cassert> comes again: the failing assert after it is compiled out
        {"ndebug_between_cassert", cassert_around("#define NDEBUG\n#include <cassert>\nstatic void probe() { assert(1 + 1 == 3); }"), full},
        // C++17's special math functions (<bits/specfun.h>), printed on an answer-free line
        {"special_math_printed", before_end("    std::printf(\"checking: %.6f %.6f\\n\", std::riemann_zeta(2.0), std::beta(2.0, 3.0));"), full},
        // a global `beta` with std opened: ambiguous with std::beta
        {"beta_ambiguous", with_line(after_include("using namespace std;\ndouble beta = 0.5;"), "", "    if (beta < 0) return 1;"), error},
        // a global y1 before the header: <cmath> declares the Bessel function ::y1
        {"y1_global", before_include("double y1 = 3;"), error},
        // std::numeric_limits without <limits>: the header's <cmath> brings it, through <bits/specfun.h>
        {"limits_not_included", before_end("    if (std::numeric_limits<double>::epsilon() <= 0) return 1;"), full},
        // TR1's special functions, which name the std ones
        {"tr1_cmath", after_include("#include <tr1/cmath>"), full},
        // a reserved name of the library's own
        {"gnu_cxx_name", before_end("    if (__gnu_cxx::__numeric_traits<int>::__max <= 0) return 1;"), full},
        // the macro <bits/specfun.h> defines, used in code
        {"spec_funcs_macro", before_end("    std::printf(\"checking: %ld\\n\", long(__STDCPP_MATH_SPEC_FUNCS__));"), full},
        // std::beta with a line splice (backslash-newline) inside its name
        {"spliced_name", before_end("    std::printf(\"checking: %.6f\\n\", std::be\\\nta(2.0, 3.0));"), full},
        // std::beta named only by pasting two tokens in a macro
        {"pasted_name", with_line(before_main("#define JOIN(a, b) a##b"), "",
                                  "    std::printf(\"checking: %.6f\\n\", std::JOIN(be, ta)(2.0, 3.0));"), full},
        // defines_qualified with a line splice inside `bc`
        {"spliced_qualified", solved + "void b\\\nc::undefined(const char*) {}\n", error},
        // defines_qualified with a comment between `bc` and `::`, or between `namespace` and `bc`, or through an alias
        {"commented_qualified", solved + "void bc/**/::undefined(const char*) {}\n", error},
        {"commented_namespace", solved + "namespace/**/bc { inline void undefined(const char*) {} }\n", error},
        {"alias_qualified", solved + "namespace mine = bc;\nvoid mine::undefined(const char*) {}\n", error},
        // an own header that is not there
        {"missing_own_header", after_include("#include \"helpers.hpp\""), error},
        // the header found through angle brackets
        {"header_in_angles", in_angles, full},
        // the competitive programmer's boilerplate first: every standard header, std opened
        {"bits_stdcpp", before_include("#include <bits/stdc++.h>\nusing namespace std;"), full},
    };
}

// Which programs: every `solved`-th solved program, every `hostile`-th hostile one (in name
// order), and the mistakes applied to every `mistakes`-th exercise.
struct Strides {
    std::size_t solved, hostile, mistakes;
};
constexpr Strides whole_corpus{1, 1, 9};  // the mistakes on exercises from each chapter
constexpr Strides sample{4, 3, 1000};     // the mistakes on the first exercise only

std::vector<Case> cases(const ExerciseSet& set, Strides strides) {
    std::vector<Case> all;
    for (std::size_t i = 0; i < set.all().size(); i += strides.solved) {
        const Exercise& e = set.all()[i];
        const fs::path solved = source_dir / "tests" / "solved" / e.chapter / e.file_name();
        if (fs::exists(solved)) all.push_back({"solved/" + e.id, e.file_name(), read_text(solved), &e});
    }
    const Exercise& first = set.all().front();
    std::vector<fs::path> hostile;
    for (const auto& entry : fs::directory_iterator(source_dir / "tests" / "hostile"))
        if (entry.path().extension() == ".cpp") hostile.push_back(entry.path());
    std::sort(hostile.begin(), hostile.end());
    for (std::size_t i = 0; i < hostile.size(); i += strides.hostile)
        all.push_back({"hostile/" + hostile[i].stem().string(), first.file_name(), read_text(hostile[i]), &first});
    for (std::size_t i = 0; i < set.all().size(); i += strides.mistakes) {
        const Exercise& e = set.all()[i];
        const fs::path solved = source_dir / "tests" / "solved" / e.chapter / e.file_name();
        if (!fs::exists(solved)) continue;
        for (CompileMistake& m : mistakes(read_text(solved)))
            all.push_back({"mistake/" + e.id + "/" + m.kind, e.file_name(), std::move(m.text), &e, m.alone});
    }
    return all;
}

// Both ways on every program of the corpus, two at a time; the verdicts must agree.
void compare_ways(Strides strides) {
    const ExerciseSet set = ExerciseSet::load(source_dir);
    REQUIRE(set.all().size() >= 10);
    const std::vector<Case> all = cases(set, strides);
    const auto count = [&](const std::string& prefix) {
        return std::count_if(all.begin(), all.end(), [&](const Case& c) { return c.name.starts_with(prefix); });
    };
    const std::size_t solved = count("solved/"), mistakes = count("mistake/");
    REQUIRE(solved >= 5);
    REQUIRE(count("hostile/") >= 5);
    REQUIRE(mistakes >= 36);  // every kind, on one exercise at least
    testing::TempDir work("compile-ways"), cache("compile-ways-cache");
    const ProgramJail jail;
    std::vector<std::string> fast(all.size()), classic(all.size());
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t i = next++; i < all.size(); i = next++) {
            fast[i] = outcome(all[i], CompileWay::fast, work.path, cache.path, jail);
            classic[i] = outcome(all[i], CompileWay::classic, work.path, cache.path, jail);
        }
    };
    std::thread helper(worker);
    worker();
    helper.join();
    std::size_t differences = 0, correct = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        CHECK_MESSAGE(fast[i] == classic[i], all[i].name, "\n  fast:    ", fast[i], "\n  classic: ", classic[i]);
        differences += fast[i] != classic[i];
        correct += all[i].name.starts_with("solved/") && all_correct(fast[i]);
    }
    CHECK(differences == 0);
    // The corpus means something: the solved programs pass, and each mistake gets what it gets
    // compiled alone (a compile error for the missing header or semicolon, the ambiguous beta, ...;
    // full marks for the header included twice, an #include after code, ...).
    CHECK(correct == solved);
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (all[i].alone == Alone::compile_error) CHECK_MESSAGE(fast[i] == "compile_error", all[i].name, ": ", fast[i]);
        if (all[i].alone == Alone::full_marks) CHECK_MESSAGE(all_correct(fast[i]), all[i].name, ": ", fast[i]);
        if (all[i].alone == Alone::crashes) CHECK_MESSAGE(fast[i].starts_with("signaled"), all[i].name, ": ", fast[i]);
    }
    // And the fast way did prebuild the header (its archive is in the cache), and the header was
    // precompiled (a precompile that fails only costs time, which no verdict shows: with a -Wl flag
    // among its flags, g++ once tried to link the header, and every compile read it anew).
    bool archive = false, precompiled = false;
    for (const auto& entry : fs::directory_iterator(cache.path)) {
        archive = archive || entry.path().filename().string().starts_with("lib-");
        precompiled = precompiled || entry.path().filename().string().starts_with("pch-");
    }
    CHECK(archive);
    CHECK(precompiled);
}

}  // namespace

TEST_CASE("compile ways: fast and classic give the same verdicts on a sample of the corpus") {
    compare_ways(sample);
}

TEST_CASE("compile ways: fast and classic give every program the same verdicts (full sweep)" * doctest::skip()) {
    compare_ways(whole_corpus);
}

namespace {

// Whether the program in `dir` compiles as its student compiles it alone: plain g++, the whole
// header read from the chapters folder, no precompiled header, the system linker.
bool compiles_alone(const fs::path& dir, const std::string& file) {
    const RunResult run = run_process({"g++", "-std=c++17", "-O0", "-Wall", "-I" + (source_dir / "chapters").string(), file,
                                       "-o", "alone.out"},
                                      {}, compiler_limits(), dir);
    REQUIRE_MESSAGE(run.status == RunStatus::exited, "g++ did not finish: ", run.error);
    return run.exit_code == 0;
}

}  // namespace

TEST_CASE("compile ways: the fast way compiles exactly the tricky programs a plain g++ compiles") {
    const ExerciseSet set = ExerciseSet::load(source_dir);
    const Exercise& first = set.all().front();
    const auto all = mistakes(read_text(source_dir / "tests" / "solved" / first.chapter / first.file_name()));
    // Three of the tricky ones (CompileWay::classic is this very g++, so the sample above covers
    // the rest): the header twice, a name of <bits/specfun.h> clashing with a global, the Bessel y1.
    const std::vector<std::string> chosen{"header_twice_plain", "beta_ambiguous", "y1_global"};
    testing::TempDir work("compile-alone"), cache("compile-alone-cache");
    for (const std::string& kind : chosen) {
        const auto mistake = std::find_if(all.begin(), all.end(), [&](const CompileMistake& m) { return m.kind == kind; });
        REQUIRE(mistake != all.end());
        const fs::path dir = work.path / kind;
        fs::create_directories(dir);
        std::ofstream(dir / first.file_name(), std::ios::binary) << mistake->text;
        const bool alone = compiles_alone(dir, first.file_name());
        CHECK_MESSAGE(alone == (mistake->alone != Alone::compile_error), kind);  // it still probes what it says
        const CompileResult fast = compile_program(dir / first.file_name(), source_dir / "chapters", cache.path,
                                                   compiler_limits(), CompileWay::fast);
        CHECK_MESSAGE(fast.status != CompileStatus::grader_fault, kind, ": ", fast.diagnostics);
        CHECK_MESSAGE(fast.ok() == alone, kind, " compiles alone: ", alone, "; the fast way says:\n", fast.diagnostics);
    }
}
