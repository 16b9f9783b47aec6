// A program's outcome on one input, kept beside its binary in the compile cache, so that the
// student's loop runs again only what changed: a binary is named by the content it was built
// from, so the same binary, input and limits give the program the same chance again.
#pragma once

#include "checker/run/process.hpp"

#include <filesystem>
#include <string_view>

namespace blockcheck {

// Runs `binary` (a file of the compile cache) with `input` under `limits`, unsandboxed, or
// returns what it did last time on the same input and limits. Only a run that ended by itself
// (exited, any exit code) is kept: a timeout, a limit or a crash may be the machine's, and
// runs again. Kept as <binary>.run-<SHA-256 of input and limits>, written atomically, with an
// HMAC under this user's cache secret (cache_seal.hpp) of the binary's bytes, the input, the
// limits and the outcome: a record planted in the cache folder, altered, or left from another
// binary is not believed, and the program runs. An unreadable or damaged record just runs it.
RunResult run_remembered(const std::filesystem::path& binary, std::string_view input, const Limits& limits);

}  // namespace blockcheck
