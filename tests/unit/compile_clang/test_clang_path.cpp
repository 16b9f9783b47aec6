// grade's clang fast path (CompileWay::clang, judge_program with RunSettings::way clang) against
// g++ (CompileWay::fast): over the test corpora (honest: tests/solved/; slips: tests/mistakes/
// and the blind tutor corpus; float: the tutor corpus's float programs; hostile: tests/hostile/)
// every program gets the same final verdicts both ways, part by part. The suite runs a sample; the
// whole corpus (about 470 programs) is the "(full sweep)" case, run by `./blockcheck test --long`
// or on its own: build/blockcheck_tests --no-skip --test-case='*clang*full sweep*'.
// The known differences between the compilers each have a case that ends in g++'s verdict.
#include "checker/compile/compile.hpp"
#include "checker/course/mistake_programs.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/run/sandbox.hpp"

#include <doctest/doctest.h>

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include "exercise_testing.hpp"
#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

using testing::repository;
using testing::shipped_exercises;

std::string read_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Program {
    std::string name;  // corpus/where, for the failure message
    std::string text;
    const Exercise* exercise;
};

// The cache, the jail and the work folder every case of this file shares (the header's clang PCH
// and g++ archive are built once).
struct Road {
    testing::TempDir cache{"clang-path-cache"}, work{"clang-path-work"};
    ProgramJail jail;
    std::atomic<int> next{0};

    RunSettings settings(CompileWay way) const {
        RunSettings s;
        s.include_dir = repository() / "chapters";
        s.cache_dir = cache.path;
        s.limits.cpu_seconds = 1;
        s.limits.wall_seconds = 2;
        s.jail = &jail;
        s.way = way;
        return s;
    }

    // The program judged built `way` (its own folder, under the exercise's file name).
    ExerciseResult judge(const Program& p, CompileWay way) {
        const fs::path dir = work.path / std::to_string(next++);
        fs::create_directories(dir);
        const fs::path source = dir / p.exercise->file_name();
        std::ofstream(source, std::ios::binary) << p.text;
        return judge_program(*p.exercise, {source, p.exercise->file_name(), p.exercise->inputs, std::nullopt, std::nullopt},
                             settings(way), AnswerCompareOptions{});
    }
};

Road& road() {
    static Road shared;
    return shared;
}

// What a program earned, without messages or times: each part's verdict and score. How a run was
// stopped (the CPU limit, the wall clock, the output cap) depends on the machine's load, not on
// the compiler: those verdicts are one word here.
std::string outcome(const ExerciseResult& r) {
    std::string text;
    for (const PartResult& p : r.parts) {
        std::string verdict(verdict_name(p.verdict));
        if (verdict == "timed_out" || verdict == "output_limit") verdict = "stopped";
        text += " " + p.name + "=" + verdict + "/" + std::to_string(p.score);
    }
    return text;
}

bool full_marks(const ExerciseResult& r) { return r.status == "done" && r.score >= r.max_score; }

// Every `stride`-th item of `all` (in their order).
template <class T>
std::vector<T> every(const std::vector<T>& all, std::size_t stride) {
    std::vector<T> kept;
    for (std::size_t i = 0; i < all.size(); i += stride) kept.push_back(all[i]);
    return kept;
}

std::vector<Program> honest() {
    std::vector<Program> all;
    for (const Exercise& e : shipped_exercises().all()) {
        const fs::path file = repository() / "tests" / "solved" / e.chapter / e.file_name();
        if (fs::exists(file)) all.push_back({"honest/" + e.id, read_text(file), &e});
    }
    return all;
}

std::vector<Program> slips() {
    std::vector<Program> all;
    for (const MistakeProgram& m : mistake_programs(repository())) {
        const Exercise* e = shipped_exercises().find(m.exercise);
        REQUIRE_MESSAGE(e, m.file.string());
        const std::string text =
            m.file.extension() == ".slip" ? slip_program_text(repository(), m.file) : read_text(m.file);
        all.push_back({"slips/" + m.file.parent_path().filename().string() + "/" + m.exercise, text, e});
    }
    return all;
}

// The blind tutor corpus (expect.tsv: name, exercise, expectation, ...): its float programs
// (expectation right:float) when `floats`, the others otherwise.
std::vector<Program> tutor(bool floats) {
    std::vector<Program> all;
    for (const auto& chapter : fs::directory_iterator(repository() / "tests" / "tutor_corpus")) {
        if (!chapter.is_directory()) continue;
        std::istringstream rows(read_text(chapter.path() / "expect.tsv"));
        for (std::string row; std::getline(rows, row);) {
            if (row.empty() || row[0] == '#') continue;
            std::istringstream cells(row);
            std::string name, exercise, expectation;
            std::getline(cells, name, '\t'), std::getline(cells, exercise, '\t'), std::getline(cells, expectation, '\t');
            if ((expectation == "right:float") != floats) continue;
            const Exercise* e = shipped_exercises().find(exercise);
            const fs::path file = chapter.path() / (name + ".cpp");
            if (e && fs::exists(file)) all.push_back({(floats ? "float/" : "tutor/") + name, read_text(file), e});
        }
    }
    std::sort(all.begin(), all.end(), [](const Program& a, const Program& b) { return a.name < b.name; });
    return all;
}

std::vector<Program> hostile() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(repository() / "tests" / "hostile"))
        if (entry.path().extension() == ".cpp") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    const Exercise* first = &shipped_exercises().all().front();
    std::vector<Program> all;
    for (const fs::path& file : files) all.push_back({"hostile/" + file.stem().string(), read_text(file), first});
    return all;
}

struct Strides {
    std::size_t honest, slips, tutor, floats, hostile;
};

// Each program judged both ways, two at a time: the final verdicts must be the same; clang's
// build must have decided every honest program (the fast path is used), and a verdict clang kept
// is full marks.
void compare(Strides strides) {
    REQUIRE(clang_usable());
    std::vector<Program> all;
    for (auto part : {every(honest(), strides.honest), every(slips(), strides.slips), every(tutor(false), strides.tutor),
                      every(tutor(true), strides.floats), every(hostile(), strides.hostile)})
        all.insert(all.end(), part.begin(), part.end());
    for (const char* corpus : {"honest/", "slips/", "tutor/", "float/", "hostile/"})
        REQUIRE_MESSAGE(std::count_if(all.begin(), all.end(), [&](const Program& p) { return p.name.starts_with(corpus); }) >= 2,
                        corpus);
    std::vector<ExerciseResult> fast(all.size()), clang(all.size());
    const ClangServiceUse service_before = clang_service_use();
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t i = next++; i < all.size(); i = next++) {
            clang[i] = road().judge(all[i], CompileWay::clang);
            fast[i] = road().judge(all[i], CompileWay::fast);
        }
    };
    std::thread helper(worker);
    worker();
    helper.join();
    std::size_t by_clang = 0, redecided = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        CHECK_MESSAGE(outcome(clang[i]) == outcome(fast[i]), all[i].name, "\n  clang way: ", outcome(clang[i]), " (",
                      clang[i].compiler, ")\n  g++:       ", outcome(fast[i]));
        CHECK(fast[i].compiler == "g++");
        if (clang[i].compiler == "clang") {
            ++by_clang;
            CHECK_MESSAGE(full_marks(clang[i]), all[i].name);
            CHECK_FALSE(clang[i].redecided);
        } else {
            CHECK_MESSAGE(clang[i].compiler == "g++", all[i].name);
            redecided += clang[i].redecided;
        }
        if (all[i].name.starts_with("honest/")) CHECK_MESSAGE(clang[i].compiler == "clang", all[i].name);
    }
    MESSAGE(all.size(), " programs: ", by_clang, " decided by clang, ", all.size() - by_clang, " by g++ (", redecided,
            " after clang's build lost a point)");
    CHECK(by_clang > 0);
    CHECK(redecided > 0);  // the slips lose points under clang too, and g++ decides them
#ifdef BLOCKCHECK_CLANG_SERVICE_BUILT
    // clang's builds were the resident service's, and no service failed on these corpora
    CHECK(clang_service_use().compiles > service_before.compiles);
    CHECK(clang_service_use().failures == service_before.failures);
#endif
}

// A solved program with `from` replaced by `to` (exactly once), and `code` after its opening
// lines (the header's include first, as clang's way needs, then `using namespace bc;`).
Program changed(const std::string& name, const std::string& exercise, const std::string& from, const std::string& to,
                const std::string& code = "") {
    const Exercise* e = shipped_exercises().find(exercise);
    REQUIRE(e);
    std::string text = read_text(repository() / "tests" / "solved" / e->chapter / e->file_name());
    const auto at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, from);
    REQUIRE(text.find(from, at + 1) == std::string::npos);
    text.replace(at, from.size(), to);
    const std::string opening = "using namespace bc;\n";
    REQUIRE(text.find(opening) != std::string::npos);
    text.insert(text.find(opening) + opening.size(), code);
    return {name, text, e};
}

const std::string relu_line = "answer(\"relu_ffn_parameters\", 2 * c * f);";
const std::string narrow_line = "answer(\"narrow_swiglu_ffn_parameters\", 3 * c * f_small);";

}  // namespace

TEST_CASE("clang path: grading_way chooses clang only where asked and usable") {
    CHECK(grading_way(CompilerChoice::gcc) == CompileWay::fast);
    CHECK(grading_way(CompilerChoice::automatic) == (clang_usable() ? CompileWay::clang : CompileWay::fast));
    if (clang_usable()) CHECK(grading_way(CompilerChoice::clang) == CompileWay::clang);
    else CHECK_THROWS_AS(grading_way(CompilerChoice::clang), std::invalid_argument);
}

TEST_CASE("clang path: an honest program is built by clang, keeps its full marks, and prints what g++'s build prints") {
    REQUIRE(clang_usable());
    const Program p = honest().front();
    const ExerciseResult clang = road().judge(p, CompileWay::clang), gcc = road().judge(p, CompileWay::fast);
    CHECK(clang.compiler == "clang");
    CHECK_FALSE(clang.redecided);
    CHECK(full_marks(clang));
    CHECK(clang.output == gcc.output);
    CHECK(gcc.compiler == "g++");
}

TEST_CASE("clang path: argument evaluation order (unspecified): clang's build loses the part, g++ decides") {
    REQUIRE(clang_usable());
    // g++ evaluates diff's arguments right to left here (diff = 2 - 1 = 1), clang left to right (-1)
    const Program p = changed("evaluation_order", "ffn_parameter_counts", relu_line,
                              "answer(\"relu_ffn_parameters\", diff(tick(), tick()) * 2 * c * f);",
                              "static long ticks = 0;\nlong tick() { return ++ticks; }\nlong diff(long a, long b) { return a - b; }\n");
    const ExerciseResult gcc = road().judge(p, CompileWay::fast), decided = road().judge(p, CompileWay::clang);
    REQUIRE(full_marks(gcc));  // the student's g++ gets it right
    CHECK(decided.compiler == "g++");
    CHECK(decided.redecided);  // clang's build printed -1 times the answer
    CHECK(outcome(decided) == outcome(gcc));
    CHECK(full_marks(decided));
}

TEST_CASE("clang path: a GNU extension clang refuses (a variable-length array initialised): g++ decides") {
    REQUIRE(clang_usable());
    const Program p = changed("gnu_vla", "ffn_parameter_counts", relu_line,
                              "long counts[c > 0 ? 1 + c % 2 : 1] = {0};\n    " + relu_line.substr(0, relu_line.size() - 2) +
                                  " + counts[0]);");
    const ExerciseResult gcc = road().judge(p, CompileWay::fast), decided = road().judge(p, CompileWay::clang);
    REQUIRE(full_marks(gcc));
    CHECK(decided.compiler == "g++");
    CHECK(decided.redecided);
    CHECK(outcome(decided) == outcome(gcc));
}

TEST_CASE("clang path: an answer printed by a static destructor after std::exit: g++'s verdict") {
    REQUIRE(clang_usable());
    const Program p = changed("static_destructor_after_exit", "ffn_parameter_counts", relu_line,
                              "last.value = 2 * c * f;\n    std::exit(0);",
                              "#include <cstdlib>\nstruct Last { long value = 0; "
                              "~Last() { answer(\"relu_ffn_parameters\", value); } } last;\n");
    // The parts after the exit are never printed: the same missing parts both ways; the answer of
    // the destructor counts both ways (both run static destructors at std::exit).
    const ExerciseResult gcc = road().judge(p, CompileWay::fast), decided = road().judge(p, CompileWay::clang);
    CHECK(outcome(decided) == outcome(gcc));
    CHECK(decided.compiler == "g++");  // parts missing: g++ decides
    CHECK(decided.redecided);
    const PartResult* relu = nullptr;
    for (const PartResult& part : decided.parts)
        if (part.name == "relu_ffn_parameters") relu = &part;
    REQUIRE(relu);
    CHECK(relu->verdict == Verdict::correct);
}

TEST_CASE("clang path: answers left in a FILE buffer at _exit are lost both ways: g++'s verdict") {
    REQUIRE(clang_usable());
    // the last answer printed by the program's own printf (answer() flushes each of its own)
    const Program p = changed("buffer_at_exit", "ffn_parameter_counts", narrow_line,
                              "std::printf(\"narrow_swiglu_ffn_parameters = %ld\\n\", 3 * c * f_small);\n    _exit(0);",
                              "#include <unistd.h>\n#include <cstdio>\n");
    const ExerciseResult gcc = road().judge(p, CompileWay::fast), decided = road().judge(p, CompileWay::clang);
    CHECK(outcome(decided) == outcome(gcc));
    CHECK(decided.compiler == "g++");
    CHECK(decided.redecided);
}

TEST_CASE("clang path: an untouched template is built by g++ at once (it loses points, and g++ decides those)") {
    REQUIRE(clang_usable());
    const Exercise& e = shipped_exercises().all().front();
    const Program untouched{"template/" + e.id, read_text(repository() / e.source), &e};
    const ClangServiceUse before = clang_service_use();
    const ExerciseResult decided = road().judge(untouched, CompileWay::clang), gcc = road().judge(untouched, CompileWay::fast);
    CHECK(decided.compiler == "g++");
    CHECK_FALSE(decided.redecided);  // clang never built it
    CHECK(outcome(decided) == outcome(gcc));
    CHECK_FALSE(full_marks(decided));
    CHECK(clang_service_use().compiles == before.compiles);
    // one byte more and it is the student's own program again: clang first, g++ re-deciding
    Program edited = untouched;
    edited.text += "\n";
    const ExerciseResult first = road().judge(edited, CompileWay::clang);
    CHECK(first.compiler == "g++");
    CHECK(first.redecided);
}

TEST_CASE("clang path: the same final verdicts as g++ on a sample of the corpora") {
    compare({5, 24, 24, 4, 6});
}

TEST_CASE("clang path: the same final verdicts as g++ on every program of the corpora (full sweep)" * doctest::skip()) {
    compare({1, 1, 1, 1, 1});
}

#ifdef BLOCKCHECK_CLANG_SERVICE_BUILT
// These two last in the file: a service that failed leaves the rest of the process without one.
TEST_CASE("clang path: the resident service builds clang's programs") {
    REQUIRE(clang_usable());
    const Program p = honest().at(1);
    const ClangServiceUse before = clang_service_use();
    const ExerciseResult clang = road().judge(p, CompileWay::clang), gcc = road().judge(p, CompileWay::fast);
    CHECK(clang.compiler == "clang");
    CHECK(full_marks(clang));
    CHECK(clang.output == gcc.output);
    const ClangServiceUse after = clang_service_use();
    CHECK(after.compiles == before.compiles + 1);
    CHECK(after.failures == before.failures);
    CHECK_FALSE(after.idle_pids.empty());  // lent back to the pool, alive
}

TEST_CASE("clang path: a service whose grading thread has ended is not lent to another thread (no grader fault)") {
    REQUIRE(clang_usable());
    Road own;  // a cache of its own: no idle service of the shared road's to lend
    const ClangServiceUse before = clang_service_use();
    // A grading thread builds one program and starts the cache's first service, which ends with the
    // thread (bubblewrap's --die-with-parent follows the thread that started it), as a pool's worker
    // ends before the main thread's last compile.
    std::thread worker([&own] { CHECK(full_marks(own.judge(honest().at(4), CompileWay::clang))); });
    worker.join();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const ExerciseResult after_worker = own.judge(honest().at(5), CompileWay::clang);
    CHECK(after_worker.compiler == "clang");
    CHECK(full_marks(after_worker));
    const ClangServiceUse after = clang_service_use();
    CHECK(after.failures == before.failures);  // before: the worker's dead service was lent here, and failed
    CHECK(after.compiles == before.compiles + 2);
}

TEST_CASE("clang path: a resident service that dies is a grader fault: clang++ processes build the rest, nothing lost") {
    REQUIRE(clang_usable());
    const ClangServiceUse before = clang_service_use();
    REQUIRE_FALSE(before.idle_pids.empty());
    for (int pid : before.idle_pids) ::kill(pid, SIGKILL);  // this process's own services, crashed
    // the next compile meets the dead service, and is built again by a clang++ process
    const ExerciseResult first = road().judge(honest().at(2), CompileWay::clang);
    CHECK(first.compiler == "clang");
    CHECK_FALSE(first.redecided);
    CHECK(full_marks(first));
    ClangServiceUse after = clang_service_use();
    CHECK(after.failures == before.failures + 1);
    CHECK(after.compiles == before.compiles);
    CHECK(clang_usable());  // the clang way stays; only the service is gone
    // no service starts again in this process
    const ExerciseResult second = road().judge(honest().at(3), CompileWay::clang);
    CHECK(second.compiler == "clang");
    CHECK(full_marks(second));
    after = clang_service_use();
    CHECK(after.compiles == before.compiles);
    CHECK(after.failures == before.failures + 1);
    CHECK(after.idle_pids.empty());
    // a program clang's build gets wrong still goes to g++ (the rule holds without the service)
    const Program slip = changed("evaluation_order_after_crash", "ffn_parameter_counts", relu_line,
                                 "answer(\"relu_ffn_parameters\", diff(tick(), tick()) * 2 * c * f);",
                                 "// built after the service's crash\nstatic long ticks = 0;\nlong tick() { return ++ticks; }\n"
                                 "long diff(long a, long b) { return a - b; }\n");
    const ExerciseResult gcc = road().judge(slip, CompileWay::fast), decided = road().judge(slip, CompileWay::clang);
    REQUIRE(full_marks(gcc));
    CHECK(decided.redecided);
    CHECK(outcome(decided) == outcome(gcc));
}
#endif
