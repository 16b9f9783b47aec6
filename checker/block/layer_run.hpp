// One layer of a checkpoint folder run on hidden states, as forward, compare and bench do it:
// load (mapping), input, the block with a progress line, and what each part took.
#pragma once

#include "base/text.hpp"
#include "checker/common/cli.hpp"
#include "checker/block/model_folder.hpp"
#include "checker/block/stage_progress.hpp"

#include <optional>
#include <string>

namespace blockcheck {

// What enters the layer: its rows, where they sit (positions start .. start + T - 1, or Hugging
// Face's position_ids) and the keys and values already in the cache.
struct LayerInput {
    std::filesystem::path hidden_states;  // .npy or .safetensors, [T, C] or [1, T, C]
    std::optional<Matrix<double>> rows;   // or the rows themselves
    std::optional<long> start_position;   // default: 0, or right after the cached keys
    std::filesystem::path positions;      // position_ids (.npy, [T] or [1, T], increasing), instead of a start
    std::filesystem::path past_keys, past_values;  // cached rotated keys and values (.npy), at positions 0 .. P-1
};

// The rows, their positions and the cache, read and checked against the layer's shape: every
// file refused by name (a shape other than [T, C]; position_ids not one a row, not increasing, or
// not after the P cached keys; keys and values other than [1, kv_heads, P, head_dim],
// [kv_heads, P, head_dim] or [P, kv_heads x head_dim], or of different P).
struct LayerRows {
    Matrix<double> input;          // [T, C]
    std::vector<long> positions;   // one a row
    KvCache<double> cached;        // P keys and values [kv_heads x head_dim], at positions 0 .. P-1
};
LayerRows read_layer_rows(const LayerInput& input, const BlockConfig<double>& shape);

// forward's and compare's options for --model's rows: --input, --start-position, --positions,
// --past-keys, --past-values (each needing `model`).
void add_layer_input_options(CLI::App& cmd, LayerInput& input, CLI::Option* model);

template <class T>
struct LayerRun {
    ModelLayer<T> layer;
    Matrix<T> input, output;
    std::vector<long> positions;  // of the input rows
    KvCache<T> cached;            // before the input rows
    Trace<T> trace;
    double load_seconds = 0, forward_seconds = 0;
    double forward_cpu_seconds = 0;  // of every thread: on a quiet machine the wall time is about this / cores
    std::vector<std::pair<std::string, double>> stage_seconds;
};

// Loads layer `layer` and runs it at T's precision; `what` names the work on the progress line.
// With a memo, the products are kept there for the runs that follow (the mistake search's).
template <class T>
LayerRun<T> run_model_layer(ModelFolder& folder, std::size_t layer, const LayerInput& input, const std::string& what,
                            bool quiet = false, ProductMemo<T>* memo = nullptr);

// The layer's weights with their products going through `memo`.
template <class T>
BlockWeights<T, RememberedMatrix<T>> remembered(const BlockWeights<T, StoredMatrix>& w, ProductMemo<T>& memo) {
    auto r = [&memo](const StoredMatrix& m) { return RememberedMatrix<T>(m, &memo); };
    return {w.attn_norm, r(w.q),     r(w.k),     r(w.v),         r(w.o),        w.ffn_norm,
            r(w.gate),   r(w.up),    r(w.down),  w.q_bias,       w.k_bias,      w.v_bias,
            w.q_norm,    w.k_norm,   w.attn_out_norm, w.ffn_out_norm};
}

// On stderr: the layer's model family (config.json's model_type) and each mechanism its layer uses
// beyond a LLaMA layer's ("forward: qwen3 layer 1: RMSNorm on each head's q and k before RoPE ...").
void say_layer_family(ModelFolder& folder, std::size_t layer, const std::string& what, Lang lang);

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
