// bench/: the benchmarks, beside the product's rooms. `blockcheck bench` prints the block's
// forward in double and at 50 digits side by side; `bench --grading N` grades a synthetic class
// (grading_bench.hpp).
#pragma once

#include "checker/common/cli.hpp"

namespace blockcheck {

// Adds `bench` (and its --grading) to the full edition's command line.
void add_bench_command(CLI::App& app, Context& context);

}  // namespace blockcheck
