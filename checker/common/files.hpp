// Reading a whole file and writing one atomically: the one place each is done.
#pragma once

#include "base/errors.hpp"
#include "checker/common/fd.hpp"

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

// The caps of files a user or a download hands in (docs/checkpoints.md states them).
constexpr std::uintmax_t max_json_file_bytes = std::uintmax_t{64} << 20;    // config.json, an index, a case, ...
constexpr std::uintmax_t max_tensor_file_bytes = std::uintmax_t{4} << 30;   // --input, --positions, --past-*, ...

// A file the user named (a command's argument, a file a case or an assignment names), opened the
// one checked way (detail/checked_open.hpp): links are followed (the user named the path), but what
// they reach must be a regular file: a pipe, a socket, a device, a folder or a file of /proc or /sys
// is refused before anything is read, a FIFO never blocks (O_NONBLOCK), and the file is checked
// on the open descriptor and read only up to its size, refused unread beyond `max_bytes`. An
// InputFileError names the file and the reason: "FILE is a device, not a regular file: not read",
// "FILE: N bytes is beyond the limit of MAX".
std::string read_user_file(const std::filesystem::path& file, std::uintmax_t max_bytes);

// A file of a folder the user named (a downloaded checkpoint folder), opened the same checked way;
// a link in it is followed only where it resolves to a file inside the folder (or, for a Hugging
// Face hub cache snapshot `.../models--X/snapshots/REV/`, inside that model's cache folder, whose
// blobs/ the snapshot's links point to). The open descriptor and its size; InputFileError naming it.
struct UserFile {
    Fd fd;
    std::uintmax_t size = 0;
};
UserFile open_folder_file(const std::filesystem::path& folder, const std::string& name, std::uintmax_t max_bytes);

// open_folder_file's bytes.
std::string read_folder_file(const std::filesystem::path& folder, const std::string& name, std::uintmax_t max_bytes);

// read_folder_file, or nothing when no file of that name is there (a result not written yet); any
// other refusal (a pipe, a link out, beyond `max_bytes`) is the InputFileError naming it.
std::optional<std::string> read_folder_file_if_present(const std::filesystem::path& folder, const std::string& name,
                                                       std::uintmax_t max_bytes);

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
