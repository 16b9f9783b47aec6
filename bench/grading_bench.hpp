// `blockcheck bench --grading [N]`: the grading benchmark, the grade room's only entry for bench.
#pragma once

#include "base/text.hpp"

#include <cstddef>
#include <filesystem>
#include <string>

namespace blockcheck {

// N synthetic submissions graded through grade_class (the entry `blockcheck grade` uses) with two
// jobs, cold without the tutor and cold with it (side by side: the tutor's cost), then again
// unchanged; prints submissions per second, where the time went and the
// cache hit rate, then one compile's steps side by side (compile_steps.hpp; JSON with `as_json`). Returns 0 when the warm scores equal the cold ones and
// every solved student has full marks, else 1.
int grading_bench(const std::filesystem::path& root, std::size_t students, bool as_json, Lang lang);

// Student k's own text of `program` as the benchmark's class generator writes it: its variable
// names renamed, a comment and indentation of its own, a helper returning k % 5 + 1 and an include
// habit chosen by k % 5 (so k and k + 5 share a shape: the shared-code planting of
// tests/unit/insight/test_insight.cpp uses it).
std::string personalised_program(const std::string& program, std::size_t k);

}  // namespace blockcheck
