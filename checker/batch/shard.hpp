// `--shard K/N`: a class cut into N parts by a stable hash of the student id, one grader a part.
#pragma once

#include <string>
#include <string_view>

namespace blockcheck {

struct Shard {
    unsigned index = 1, count = 1;
    std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

// "2/5" -> {2, 5}; throws InputFileError for anything else (K must be 1..N).
Shard parse_shard(std::string_view text);

// Stable across runs and machines: the first 8 bytes of the id's SHA-256, modulo N.
bool in_shard(std::string_view student, const Shard& shard);

}  // namespace blockcheck
