// `blockcheck bench --real-layer DIR`: one layer of a checkpoint folder, side by side in one run:
// load time, forward time per stage and peak memory of the double-double path against double,
// the digits double keeps, and the 50-digit MPFR path on a slice (the first row) against dd.
#pragma once

#include "base/text.hpp"

#include <filesystem>

namespace blockcheck {

struct RealLayerBenchOptions {
    std::filesystem::path model, input;  // input empty: `tokens` rows of seeded values
    std::size_t layer = 0, tokens = 32;
    bool mpfr_slice = true;              // also the 50-digit forward of the first row
    bool json = false;
};

int real_layer_bench(const RealLayerBenchOptions& options, Lang lang);

}  // namespace blockcheck
