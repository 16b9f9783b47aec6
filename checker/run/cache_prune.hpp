// Keeping the student's compile cache bounded: every edit adds a binary (about 0.5 MB) and its
// run records, and a new student header adds a precompiled header (28 MB), so a semester of
// `./blockcheck` would otherwise fill a laptop's disk.
#pragma once

#include <cstdint>
#include <filesystem>

namespace blockcheck {

// Marks a cache entry (a binary, a pch-/lib- folder) as just used, so that pruning keeps it.
void touch_cache_entry(const std::filesystem::path& entry);

// When the cache folder holds more than `max_bytes`, removes its least recently used entries
// (a key's binary, .log, .fail, .seal and .run-* records together; a pch-/lib- folder whole) until it
// holds at most three quarters of that. An entry used in the last hour is never removed: another
// check or grader may be about to run it. Returns the bytes removed; errors are ignored (a cache
// that cannot be pruned only costs disk).
std::uintmax_t prune_cache(const std::filesystem::path& cache_dir, std::uintmax_t max_bytes);

}  // namespace blockcheck
