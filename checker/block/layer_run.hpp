// One layer of a checkpoint folder run on hidden states, as forward, compare and bench do it:
// load (mapping), input, the block with a progress line, and what each part took.
#pragma once

#include "base/text.hpp"
#include "checker/block/model_folder.hpp"
#include "checker/block/stage_progress.hpp"

#include <optional>
#include <string>

namespace blockcheck {

// Where the layer's rows sit: positions start .. start + T - 1.
struct LayerInput {
    std::filesystem::path hidden_states;  // .npy or .safetensors, [T, C] or [1, T, C]
    std::optional<Matrix<double>> rows;   // or the rows themselves
    long start_position = 0;
};

template <class T>
struct LayerRun {
    ModelLayer<T> layer;
    Matrix<T> input, output;
    Trace<T> trace;
    double load_seconds = 0, forward_seconds = 0;
    double forward_cpu_seconds = 0;  // of every thread: on a quiet machine the wall time is about this / cores
    std::vector<std::pair<std::string, double>> stage_seconds;
};

// Loads layer `layer` and runs it at T's precision; `what` names the work on the progress line.
template <class T>
LayerRun<T> run_model_layer(ModelFolder& folder, std::size_t layer, const LayerInput& input, const std::string& what,
                            bool quiet = false);

// The significant digits the dd block guarantees normwise at every stage when the largest position
// is `largest_position`: 30, less where RoPE's angle (carried to 2^-106 of its size) is large:
// floor(31.9 - log10(largest position)) beyond position 79.
int dd_guaranteed_digits(long largest_position);

// The sentence saying which precision ran and what it guarantees: "double", "dd", "50", "100".
std::string precision_statement(const std::string& precision, long largest_position, Lang lang);

// Seconds a 50- or 100-digit MPFR forward of `multiply_adds` is expected to take on this machine's
// cores (about 80 ns a multiply-add at 50 digits, 120 ns at 100: bench, bench --real-layer).
double mpfr_seconds_estimate(double multiply_adds, const std::string& precision);

// On stderr, when the MPFR work would take over a minute: how long, and that dd gives 30 digits.
void warn_if_slow_mpfr(double multiply_adds, const std::string& precision, Lang lang);

}  // namespace blockcheck
