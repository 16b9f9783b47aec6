// Keeping the compile caches bounded: every edit adds a binary (about 0.5 MB) and its run records,
// and a new student header adds a precompiled header (28 MB), so a semester of `./blockcheck` would
// otherwise fill a laptop's disk; a grading run bounds each student's share and the whole cache.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace blockcheck {

// Marks a cache entry (a binary, a pch-/lib- folder) as just used, so that pruning keeps it.
void touch_cache_entry(const std::filesystem::path& entry);

// When the cache folder holds more than `max_bytes`, removes its least recently used entries
// (a key's binary, .log, .fail, .seal and .run-* records together; a pch-/lib- folder whole) until it
// holds at most three quarters of that. An entry used within `spare` (an hour; a grading run, a few
// minutes) is never removed: another check or grader may be about to run it. Returns the bytes
// removed; errors are ignored (a cache that cannot be pruned only costs disk).
std::uintmax_t prune_cache(const std::filesystem::path& cache_dir, std::uintmax_t max_bytes,
                           std::chrono::seconds spare = std::chrono::hours(1));

// What a grading run lets one student store in a shared cache (docs/caches.md): each compile's
// new files are charged to the student whose program it was, once that program has run; a student
// whose charges pass `share` loses every entry charged to them (their own, never the class's), and
// everything they store afterwards is removed as soon as it has run. Safe from several threads.
class CacheShares {
public:
    explicit CacheShares(std::uintmax_t share) : share_(share) {}

    // Charges `files` (a compile's new cache files) to `owner`; returns the bytes removed.
    std::uintmax_t charge(const std::string& owner, const std::vector<std::filesystem::path>& files);

private:
    struct Account {
        std::uintmax_t bytes = 0;
        std::vector<std::filesystem::path> files;  // kept while under the share
    };
    std::uintmax_t share_;
    std::mutex mutex_;
    std::map<std::string, Account> accounts_;
};

// The bounds of a grading run's cache (grade's OUT/.cache or --cache; docs/caches.md).
constexpr std::uintmax_t grading_share_bytes = std::uintmax_t{256} << 20;  // a student's
constexpr std::uintmax_t grading_cache_bytes = std::uintmax_t{2} << 30;    // the whole cache
constexpr std::chrono::seconds grading_spare{120};                          // used this recently: kept

}  // namespace blockcheck
