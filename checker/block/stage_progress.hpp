// What a long forward shows while it runs: after two seconds, a line on stderr per stage the
// block finishes (its name, the share of the layer's multiply-adds done, the time so far), and
// the time each stage took (for bench --real-layer).
#pragma once

#include "solutions/block/block.hpp"

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace blockcheck {

// Multiply-adds of each matrix-product stage of a block on T rows (Q, K, V, attention_output,
// gate, up, down), the rest (norms, RoPE, attention) too small to count.
template <class T>
std::vector<std::pair<std::string, double>> stage_multiply_adds(const BlockConfig<T>& c, std::size_t rows) {
    const double t = static_cast<double>(rows), C = c.hidden_size, F = c.ffn_hidden_size,
                 qd = c.query_heads * c.head_dim, kvd = c.kv_heads * c.head_dim;
    return {{"Q", t * C * qd}, {"K", t * C * kvd}, {"V", t * C * kvd}, {"attention_output", t * qd * C},
            {"gate", t * C * F}, {"up", t * C * F}, {"down", t * F * C}};
}

class StageProgress {
public:
    // `what` names the work on the line ("forward"); `stages` from stage_multiply_adds.
    StageProgress(std::string what, std::vector<std::pair<std::string, double>> stages, bool quiet = false);

    // The hook to set as Trace::on_add.
    void stage_done(const std::string& name);
    // Ends the line (when one was printed).
    void finish();

    double total_multiply_adds() const;
    // (stage, seconds since the previous stage ended), in the order the block ran them.
    const std::vector<std::pair<std::string, double>>& stage_seconds() const { return times_; }

private:
    std::string what_;
    std::vector<std::pair<std::string, double>> stages_;
    bool quiet_, printed_ = false;
    double done_ = 0;
    std::chrono::steady_clock::time_point start_, last_;
    std::vector<std::pair<std::string, double>> times_;
};

}  // namespace blockcheck
