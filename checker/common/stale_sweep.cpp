#include "checker/common/stale_sweep.hpp"

#include <unistd.h>

#include <string>

namespace blockcheck {

namespace fs = std::filesystem;

namespace {

// The pid in `name` after `prefix`, when the name is one of a process's leftovers; else 0.
long leftover_pid(std::string_view name, std::string_view prefix) {
    if (!name.starts_with(prefix)) return 0;
    name.remove_prefix(prefix.size());
    const std::string_view digits = name.substr(0, name.find('-'));
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string_view::npos) return 0;
    return std::stol(std::string(digits));
}

}  // namespace

void sweep_stale(const fs::path& dir, std::string_view prefix, std::optional<std::chrono::seconds> max_age) {
    const auto cutoff = fs::file_time_type::clock::now() - max_age.value_or(std::chrono::seconds(0));
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        const long pid = leftover_pid(name, prefix);
        std::error_code gone;
        if (pid > 0) {
            if (pid != ::getpid() && !fs::exists("/proc/" + std::to_string(pid), gone) && !gone) fs::remove_all(entry.path(), gone);
        } else if (max_age && name.starts_with(prefix) && entry.last_write_time(gone) < cutoff && !gone) {
            fs::remove_all(entry.path(), gone);
        }
    }
}

}  // namespace blockcheck
