// The differential test of the two ways to compile (CompileWay::fast against ::classic): over the
// solved programs, the hostile corpus and mistakes generated from solved programs, every
// program gets the same verdicts, part by part, whichever way it was built. The suite runs a
// sample (a quarter of the solved programs, a third of the hostile ones, every mistake on one
// exercise); the whole corpus, about 220 compiles, is skipped there and run by
// `./blockcheck test --long` (its ctest entry long_unit_sweeps runs the "(full sweep)" cases).
#include "checker/exercise/exercise_set.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/run/compile.hpp"
#include "checker/run/sandbox.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
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

struct Case {
    std::string name;     // where it came from, for the failure message
    std::string file;     // the file name it is compiled under
    std::string text;
    const Exercise* exercise;
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
    if (run.status != RunStatus::timed_out) text += " " + std::to_string(run.exit_code) + " " + std::to_string(run.signal);
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

// The mistakes a student makes (and a few a hostile one does), each applied to a solved program.
std::vector<std::pair<std::string, std::string>> mistakes(const std::string& solved) {
    const std::string include = "#include \"blockcheck.hpp\"";
    const auto at = solved.find(include);
    auto before_include = [&](const std::string& text) { return solved.substr(0, at) + text + "\n" + solved.substr(at); };
    const auto last_brace = solved.rfind('}');
    auto before_end = [&](const std::string& text) { return solved.substr(0, last_brace) + text + "\n" + solved.substr(last_brace); };
    std::string no_semicolon = solved;
    no_semicolon.erase(no_semicolon.find(";\n", at), 1);
    return {
        {"no_header", solved.substr(0, at) + solved.substr(at + include.size())},
        {"macro_before_header", before_include("#define double float")},
        {"macro_after_comment", before_include("/* mine */ #define double float")},
        {"digraph_macro", before_include("%:define double float")},
        {"redefines_header_function", solved + "namespace bc { void answer_choice(const char*, const char*) {} }\n"},
        {"redefines_inline", solved + "namespace bc { inline void undefined(const char*) {} }\n"},
        {"defines_qualified", solved + "void bc::undefined(const char*) {}\n"},
        {"header_twice", solved + "#undef BLOCKCHECK_STUDENT_HEADER\n#include \"blockcheck.hpp\"\n"},
        {"missing_semicolon", no_semicolon},
        {"extra_answer", before_end("    answer(\"not_an_answer\", 1.5);")},
        {"text_answer", before_end("    answer(\"text\", \"hello\");")},
        {"global_initialiser", before_include("#include <cstdio>\nstatic int early = (std::puts(\"early = 1\"), 0);")},
        {"crash_at_end", before_end("    std::abort();")},
        {"own_std_overload", solved + "namespace std { double sqrt(int) { return 0; } }\n"},
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
        for (auto& [kind, text] : mistakes(read_text(solved)))
            all.push_back({"mistake/" + e.id + "/" + kind, e.file_name(), text, &e});
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
    REQUIRE(mistakes >= 14);
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
    std::size_t differences = 0, correct = 0, compile_errors = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        CHECK_MESSAGE(fast[i] == classic[i], all[i].name, "\n  fast:    ", fast[i], "\n  classic: ", classic[i]);
        differences += fast[i] != classic[i];
        correct += all[i].name.starts_with("solved/") && all_correct(fast[i]);
        compile_errors += fast[i] == "compile_error";
    }
    CHECK(differences == 0);
    // The corpus means something: the solved programs pass, and some mistakes do not compile (at
    // least two of the fourteen on each exercise: the missing header and the missing semicolon).
    CHECK(correct == solved);
    CHECK(compile_errors >= 2 * (mistakes / 14));
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
