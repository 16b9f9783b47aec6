// Compiling one exercise program, with a content-addressed cache of binaries and of failures.
#pragma once

#include "checker/common/submission_file.hpp"
#include "checker/run/process.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace blockcheck {

// Whose doing a compile's outcome is. Decided only from facts a program cannot write (how the
// compiler process ended, whether a known-good program compiles under the same limits, whether
// the cache could be written), never from the compiler's messages, which quote the source.
enum class CompileStatus {
    compiled,      // the binary is ready
    rejected,      // the program's: the compiler's errors, or a limit a known-good program stays within
    grader_fault,  // the grader's: the compiler could not start, a known-good program was stopped by
                   // the same limits, or the build folder or the cache could not be written
};

struct CompileResult {
    CompileStatus status = CompileStatus::rejected;
    std::filesystem::path binary;  // in the cache folder, when compiled
    std::string diagnostics;       // trimmed compiler messages (warnings when compiled), or why it could not compile
    bool cached = false;           // answered from the cache, the compiler did not run
    double seconds = 0;            // spent in compile_program
    std::vector<Text> notes;       // files beside the source that were not read (links, pipes), links followed
    std::vector<std::filesystem::path> stored;  // the cache files this compile wrote (none when cached)
    std::string compiler = "g++";  // which compiler built it: "g++", or "clang" (CompileWay::clang's recipe)

    bool ok() const { return status == CompileStatus::compiled; }
};

// How a program is built. Both give every program the same verdict (tests/unit/compile/test_compile_ways.cpp
// compares them over the solved programs, the hostile corpus and generated mistakes).
enum class CompileWay {
    // A student header that supports it (it tests BLOCKCHECK_HEADER_OBJECT) is compiled once into
    // a one-object archive that programs link, and read as declarations only
    // (-DBLOCKCHECK_PREBUILT_HEADER) by every program whose text cannot change how the header
    // compiles (no #define, #undef, #if or #pragma, no other quoted #include, no line splice, no
    // `bc::` or `namespace bc` of its own); other programs read the inline header. The program's
    // leading #include lines are precompiled as one preamble (compile_preamble.hpp), without
    // <cmath>'s special functions where the program cannot tell. Linked with mold, else gold,
    // where installed.
    fast,
    // g++ on the program as its author runs it: the whole header read as text, nothing
    // precompiled, the system linker. The reference every faster way must agree with.
    classic,
    // grade's first try where clang++-16 is installed (docs/compile-speed.md, "clang 16"): clang
    // -O0 reading the students' header as one precompiled header built with
    // -fpch-instantiate-templates -fpch-codegen, linking that header's object and fast's archive
    // (one C++ ABI, libstdc++), mold. Only for a program that fast would give the prebuilt header
    // and whose first include is the students' header; any other program is compiled the fast way
    // (CompileResult::compiler says "g++"). Never the last word on a lost point: judge_program has
    // g++ decide every program that clang's build does not give full marks.
    clang,
};

// Whether CompileWay::clang can be used here: clang++-16 found when the build was configured,
// still installed, and no grader fault of the clang way in this process (clang_failed).
bool clang_usable();
// A grader fault of the clang way (its compiler could not run): the rest of the process uses g++.
void clang_failed();

// The resident clang service's use in this process (docs/compile-speed.md, "The resident compile
// service"): compiles it served, services that failed (each a grader fault that sends every later
// clang compile of the process to a clang++ process), and the first process of each idle service
// (tests end one to see that fall-back).
struct ClangServiceUse {
    int compiles = 0;
    int failures = 0;
    std::vector<int> idle_pids;
};
ClangServiceUse clang_service_use();

// Which compiler `grade` builds with (--compiler): g++ alone; clang first with g++ deciding every
// program clang does not give full marks (judge_program); auto: clang where clang_usable().
enum class CompilerChoice { gcc, clang, automatic };
// The way a grading run compiles with: CompileWay::clang or ::fast. std::invalid_argument for
// --compiler clang where clang is not usable (saying so).
CompileWay grading_way(CompilerChoice choice);

// The linker a way links with: "mold" or "gold" for fast where installed, else "ld.bfd".
std::string linker_name(CompileWay way);

// The largest binary a compile may leave (the compiler writes no larger file) and a program may be.
constexpr std::uintmax_t max_binary_bytes = std::uintmax_t{64} << 20;

// The compiler's limits: a template bomb must not stall (wall 30 s, memory 2 GiB).
Limits compiler_limits();

// Compiles one C++17 program against include_dir (the students' header folder) into cache_dir,
// keyed by the content and name of the source, every header file directly in include_dir, the
// way, the flags and the compiler's version; an identical request reuses the binary (or the failure's
// diagnostics) without running the compiler. The source is copied into a private build folder
// first with its own headers, so nothing else next to it is visible; with bubblewrap available the compiler also runs
// sandboxed (it sees /usr, include_dir and that folder only; BLOCKCHECK_COMPILE_SANDBOX=0 turns that off). A
// student's source is never compiled as root: as root the compiler runs as a throw-away uid (as programs do,
// sandbox.hpp), or, where none can be taken, as root only inside bubblewrap; without either the compile is
// refused (grader_fault, saying why). Writes atomically (temp name then
// rename), so concurrent or interrupted runs never leave a half-written binary; in one process,
// identical concurrent requests compile once. A compile stopped by a limit is not cached; it is
// the program's doing when a known-good program compiles under the same limits, else the grader's.
// The header files directly beside the source (*.h, *.hpp, *.hh, *.hxx; at most 32 of 1 MiB) travel
// with it into the build folder and are part of the key. `display`, when given, is the source's
// path as its author sees it (chapters/ch25/x.cpp): diagnostics name it instead of the bare file name.
// The compiler writes no file over max_binary_bytes: a program that would link larger is rejected,
// never cached. The grader hands in the files as read_program read them (submission_file.hpp),
// read once; the overload taking a path, for a student's own tree, reads `source` and its headers
// itself with Links::follow_and_report.
CompileResult compile_program(const SubmittedProgram& program, const std::filesystem::path& include_dir,
                              const std::filesystem::path& cache_dir, const Limits& limits = compiler_limits(),
                              CompileWay way = CompileWay::fast, const std::string& display = {});
CompileResult compile_program(const std::filesystem::path& source, const std::filesystem::path& include_dir,
                              const std::filesystem::path& cache_dir, const Limits& limits = compiler_limits(),
                              CompileWay way = CompileWay::fast, const std::string& display = {});

// Why a throw-away uid could not compile against `include_dir` in `cache_dir` here: as root where
// compiles run without bubblewrap (--no-sandbox), a folder above the cache, or the header folder
// or a file in it, closed to other users ("'/root' is not searchable by other users"). Empty when
// it could, or when compiles do not need it (not root, or bubblewrap). compile_area.hpp moves
// them where it can.
std::string compile_folders_closed(const std::filesystem::path& include_dir, const std::filesystem::path& cache_dir);

// Keeps the first `max_errors` `file:line:col: error:` blocks of gcc's output (with the lines
// leading in to each and its context lines), drops the rest with a line "... and N more errors",
// and cuts very long lines. Without errors, the same for warnings.
std::string trim_diagnostics(std::string_view gcc_stderr, std::size_t max_errors = 3);

}  // namespace blockcheck
