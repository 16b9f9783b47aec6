#include "checker/run/cache_prune.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace blockcheck {

namespace fs = std::filesystem;

void touch_cache_entry(const fs::path& entry) {
    std::error_code ignored;
    fs::last_write_time(entry, fs::file_time_type::clock::now(), ignored);
}

namespace {

// One prunable thing: the files of one key, or one folder.
struct Entry {
    std::vector<fs::path> paths;
    std::uintmax_t bytes = 0;
    fs::file_time_type used = fs::file_time_type::min();
};

std::uintmax_t folder_bytes(const fs::path& dir) {
    std::uintmax_t total = 0;
    std::error_code ec;
    for (const auto& file : fs::recursive_directory_iterator(dir, ec))
        if (file.is_regular_file(ec)) total += file.file_size(ec);
    return total;
}

// "<key>" or "<key>.<suffix>", the key 64 hex digits (16 in caches of earlier versions, pruned
// like the rest): the key; anything else is not a key's file.
std::string key_of(const std::string& name) {
    const std::string key = name.substr(0, name.find('.'));
    const bool hex = (key.size() == 64 || key.size() == 16) && key.find_first_not_of("0123456789abcdef") == std::string::npos;
    return hex ? key : std::string{};
}

}  // namespace

std::uintmax_t prune_cache(const fs::path& cache_dir, std::uintmax_t max_bytes, std::chrono::seconds spare) {
    std::map<std::string, Entry> entries;
    std::uintmax_t total = 0;
    std::error_code ec;
    for (const auto& item : fs::directory_iterator(cache_dir, ec)) {
        const std::string name = item.path().filename().string();
        const bool folder = item.is_directory(ec) && (name.starts_with("pch-") || name.starts_with("lib-"));
        const std::string key = folder ? name : key_of(name);
        if (key.empty()) continue;  // compiler-*.txt, build folders and temporaries: not ours to prune
        Entry& entry = entries[key];
        const std::uintmax_t bytes = folder ? folder_bytes(item.path()) : item.file_size(ec);
        entry.paths.push_back(item.path());
        entry.bytes += bytes;
        total += bytes;
        // a key's binary, failure or folder says when it was last used (records follow their binary)
        if (folder || name == key || name == key + ".fail") entry.used = std::max(entry.used, item.last_write_time(ec));
    }
    if (total <= max_bytes) return 0;
    std::vector<Entry*> oldest_first;
    for (auto& [key, entry] : entries) oldest_first.push_back(&entry);
    std::sort(oldest_first.begin(), oldest_first.end(), [](const Entry* a, const Entry* b) { return a->used < b->used; });
    const auto recent = fs::file_time_type::clock::now() - spare;
    std::uintmax_t removed = 0;
    for (const Entry* entry : oldest_first) {
        if (total - removed <= max_bytes / 4 * 3 || entry->used > recent) break;
        for (const fs::path& path : entry->paths) fs::remove_all(path, ec);
        removed += entry->bytes;
    }
    return removed;
}

std::uintmax_t CacheShares::charge(const std::string& owner, const std::vector<fs::path>& files) {
    std::error_code ec;
    std::uintmax_t bytes = 0;
    for (const fs::path& file : files) {
        const auto size = fs::file_size(file, ec);
        if (!ec) bytes += size;
    }
    std::lock_guard lock(mutex_);
    Account& account = accounts_[owner];
    account.bytes += bytes;
    account.files.insert(account.files.end(), files.begin(), files.end());
    if (account.bytes <= share_) return 0;
    std::uintmax_t removed = 0;
    for (const fs::path& file : account.files) {
        const auto size = fs::file_size(file, ec);
        if (fs::remove(file, ec) && !ec) removed += size;
    }
    account.files.clear();
    return removed;
}

}  // namespace blockcheck
