// Leftovers of killed processes: files and folders named after the pid that made them
// ("<prefix><pid>" or "<prefix><pid>-..."), removed once that process is gone.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string_view>

namespace blockcheck {

// Removes every entry of `dir` named `prefix`, a pid, then the end or '-', whose pid is not this
// process's and has no /proc entry (folders with what they hold); with `max_age`, also every entry
// named `prefix` then no pid, once it is older than that (names that do not say their maker, such
// as a compile cache's build folders, which other processes may share). Entries of other names,
// and an unreadable or missing `dir`, are left alone; nothing throws.
//   sweep_stale(out / ".work", "")          "4711-3fa2..." (a killed grader's unpacking folder)
//   sweep_stale(results, ".tmp-")           ".tmp-4711-3-ada.json" (a half-written file)
//   sweep_stale(tmp, "blockcheck-grade-")   "blockcheck-grade-4711-Xa9b2c" (a killed jail's folder)
//   sweep_stale(cache, "build-", 1h)        "build-5e0f...-4711-2" (an interrupted compile's folder)
void sweep_stale(const std::filesystem::path& dir, std::string_view prefix,
                 std::optional<std::chrono::seconds> max_age = std::nullopt);

}  // namespace blockcheck
