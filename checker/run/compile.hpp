// Compiling one exercise program, with a content-addressed cache of binaries and of failures.
#pragma once

#include "checker/run/process.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace blockcheck {

struct CompileResult {
    bool ok = false;
    std::filesystem::path binary;  // in the cache folder, when ok
    std::string diagnostics;       // trimmed compiler messages (warnings when ok), or why it could not compile
    bool cached = false;           // answered from the cache, the compiler did not run
    double seconds = 0;            // spent in compile_program
};

// The compiler's limits: a template bomb must not stall (wall 30 s, memory 2 GiB).
Limits compiler_limits();

// Compiles one C++17 program against include_dir (the students' header folder) into cache_dir,
// keyed by the content and name of the source, every header file directly in include_dir, the
// flags and the compiler's version; an identical request reuses the binary (or the failure's
// diagnostics) without running the compiler. The source is copied into a private build folder
// first, so nothing else next to it is visible; with bubblewrap available the compiler also runs
// sandboxed (it sees /usr, include_dir and that folder only). Writes atomically (temp name then
// rename), so concurrent or interrupted runs never leave a half-written binary; in one process,
// identical concurrent requests compile once. A compile stopped by a limit is not cached.
CompileResult compile_program(const std::filesystem::path& source, const std::filesystem::path& include_dir,
                              const std::filesystem::path& cache_dir, const Limits& limits = compiler_limits());

// Keeps the first `max_errors` `file:line:col: error:` blocks of gcc's output (with the lines
// leading in to each and its context lines), drops the rest with a line "... and N more errors",
// and cuts very long lines. Without errors, the same for warnings.
std::string trim_diagnostics(std::string_view gcc_stderr, std::size_t max_errors = 3);

}  // namespace blockcheck
