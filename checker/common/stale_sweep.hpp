// Leftovers of killed processes: files and folders named after the pid that made them
// ("<prefix><pid>" or "<prefix><pid>-..."), removed once that process is gone.
#pragma once

#include <filesystem>
#include <string_view>

namespace blockcheck {

// Removes every entry of `dir` named `prefix`, a pid, then the end or '-', whose pid is not this
// process's and has no /proc entry (folders with what they hold). Entries of other names, and
// an unreadable or missing `dir`, are left alone; nothing throws.
//   sweep_stale(out / ".work", "")          "4711-3fa2..." (a killed grader's unpacking folder)
//   sweep_stale(results, ".tmp-")           ".tmp-4711-3-ada.json" (a half-written file)
//   sweep_stale(tmp, "blockcheck-grade-")   "blockcheck-grade-4711-Xa9b2c" (a killed jail's folder)
void sweep_stale(const std::filesystem::path& dir, std::string_view prefix);

}  // namespace blockcheck
