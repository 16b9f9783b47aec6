// Reading a whole file and writing one atomically: the one place each is done.
#pragma once

#include "base/errors.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace blockcheck {

// The file's bytes; an InputFileError "FILE: cannot read (REASON)" when it cannot be read.
std::string read_file(const std::filesystem::path& file);

// The file's bytes, refused before anything is read when the file is larger than `max_bytes`:
// an InputFileError "FILE: N bytes is beyond the limit of MAX" (files a user hands in, whose
// size nobody checked).
std::string read_file(const std::filesystem::path& file, std::uintmax_t max_bytes);

// The file's bytes, or nothing when it cannot be read (caches and fingerprints, where a
// missing file is an answer rather than an error).
std::optional<std::string> read_file_if_readable(const std::filesystem::path& file);

// Writes `content` to a temporary file in the same folder, fsyncs it and renames it over
// `file`, so readers see the old file or the whole new one. Failure: FileWriteError
// "cannot write FILE: REASON", and no temporary file is left behind.
void write_file_atomically(const std::filesystem::path& file, std::string_view content);

// write_file_atomically for a file the user named (`--out FILE`): a failure is bad input, an
// InputFileError "cannot write FILE: REASON", which commands report with exit status 2.
void write_named_file(const std::filesystem::path& file, std::string_view content);

}  // namespace blockcheck
