#include "checker/block/stage_progress.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <unistd.h>

namespace blockcheck {

StageProgress::StageProgress(std::string what, std::vector<std::pair<std::string, double>> stages, bool quiet)
    : what_(std::move(what)), stages_(std::move(stages)), quiet_(quiet), start_(std::chrono::steady_clock::now()),
      last_(start_) {}

double StageProgress::total_multiply_adds() const {
    double total = 0;
    for (const auto& [name, count] : stages_) total += count;
    return total;
}

void StageProgress::stage_done(const std::string& name) {
    const auto now = std::chrono::steady_clock::now();
    times_.emplace_back(name, std::chrono::duration<double>(now - last_).count());
    last_ = now;
    bool counted = name == "output";
    for (const auto& [stage, count] : stages_)
        if (stage == name) done_ += count, counted = true;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (quiet_ || elapsed < 2.0 || !counted) return;
    const bool terminal = ::isatty(STDERR_FILENO);
    const double total = total_multiply_adds();
    fmt::print(stderr, "{}{}: {} done, {:.0f}% of the multiply-adds, {:.1f} s{}", terminal ? "\r" : "", what_, name,
               total > 0 ? 100 * done_ / total : 100.0, elapsed, terminal ? "\033[K" : "\n");
    std::fflush(stderr);
    printed_ = true;
}

void StageProgress::finish() {
    if (printed_ && ::isatty(STDERR_FILENO)) fmt::print(stderr, "\n");
    printed_ = false;
}

}  // namespace blockcheck
