// Another implementation's block output, and its intermediates under the --trace names, read
// from JSON (numbers, decimal strings, Python's bare NaN/Infinity), .npy or .safetensors.
#pragma once

#include "solutions/block/block.hpp"
#include "solutions/block/real.hpp"

#include <filesystem>

namespace blockcheck {

// Each submitted matrix by its --trace name, "output" first, then in the reference's order.
// `reference` gives the names and shapes expected; a name it lacks, a missing "output" or a
// wrong shape is an InputFileError naming the file and the name. NaN and infinities are kept:
// they are findings, not malformed input.
Trace<Mpfr50> read_block_output(const std::filesystem::path& file, const Trace<Mpfr50>& reference);

// The stages whose columns a RoPE pair layout orders (Q, K, Q_rotated, K_rotated) with each
// head's coordinates moved from layout `from` to layout `to`: the two coordinates of pair i go
// where `to` keeps pair i. Every other stage is left as it is, so a port that rotates the wrong
// pairs still leaves the reference at Q_rotated and after.  stages: [T, heads * head_dim]
Trace<Mpfr50> in_pair_layout(Trace<Mpfr50> given, std::size_t head_dim, RopeLayout from, RopeLayout to);

// JSON text with Python's bare NaN, Infinity and -Infinity (outside strings) turned into the
// strings "NaN", "Infinity" and "-Infinity".
std::string quote_python_nonfinite(const std::string& text);

}  // namespace blockcheck
