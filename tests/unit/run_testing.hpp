// What the tests of running programs share: limits to run a test program under, and compiling a
// program of tests/hostile/ (or any source) with the student header.
#pragma once

#include "checker/compile/compile.hpp"
#include "checker/run/process.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>

namespace blockcheck::testing {

// Limits for a test's program: CPU and wall seconds, memory in MiB (everything else as Limits has it).
inline Limits test_limits(double cpu_seconds, double wall_seconds, std::size_t memory_mib) {
    Limits limits;
    limits.cpu_seconds = cpu_seconds;
    limits.wall_seconds = wall_seconds;
    limits.memory_bytes = memory_mib << 20;
    return limits;
}

// Writes `text` to `file` as it is (a test's source or data file).
inline void write_file(const std::filesystem::path& file, const std::string& text) {
    std::ofstream(file, std::ios::binary) << text;
}

// The binary of `source` compiled into `cache`; the test stops with the compiler's words if it fails.
inline std::filesystem::path compiled_program(const std::filesystem::path& source, const std::filesystem::path& cache) {
    const CompileResult result = compile_program(source, {}, cache);
    REQUIRE_MESSAGE(result.ok(), result.diagnostics);
    return result.binary;
}

// tests/hostile/<name>.cpp.
inline std::filesystem::path hostile_source(const std::string& name) {
    return std::filesystem::path(BLOCKCHECK_SOURCE_DIR) / "tests" / "hostile" / (name + ".cpp");
}

// The binary of tests/hostile/<name>.cpp, compiled into `cache`.
inline std::filesystem::path compiled_hostile(const std::string& name, const std::filesystem::path& cache) {
    return compiled_program(hostile_source(name), cache);
}

}  // namespace blockcheck::testing
