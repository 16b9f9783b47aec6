// Unpacking a student's .zip or .tar.gz safely: nothing is written outside the target folder,
// links are never created, and the size and number of files are capped.
#pragma once

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace blockcheck {

struct ArchiveLimits {
    std::size_t max_total_bytes = std::size_t{64} << 20;  // the unpacked content, counted as read (not as declared)
    std::size_t max_files = 2000;                         // entries of any kind
    std::size_t max_path_bytes = 1024;                    // one entry's name
    std::size_t max_depth = 32;                           // folders in one entry's name
};

// A bad archive: the student's error. what() names the archive and, where there is one, the entry.
struct ArchiveError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Unpacked {
    std::size_t files = 0, bytes = 0;
    // Entries not written, each "NAME: why" (NAME printable): links of any kind, devices, fifos,
    // names that leave the folder or are absolute, files past max_total_bytes.
    std::vector<std::string> skipped;
};

// Whether a file name is one this module reads: .zip, .tar.gz, .tgz or .tar (any case).
bool is_archive_name(std::string_view file_name);

// The student id an archive stands for: its name without the archive extension ("ada.tar.gz" -> "ada").
std::string archive_stem(std::string_view file_name);

// Unpacks `archive` into `target` (created; it must not exist yet or be empty). Regular files are
// written with mode 0644 and folders 0755. Links are never created, and an entry whose name is
// absolute or climbs out with `..` is never written: such entries, devices and fifos are skipped,
// each listed with the reason, and the rest is unpacked. Files are counted as read: the one that
// passes max_total_bytes is removed and no later one is written (listed too). More than max_files
// entries, or an archive libarchive cannot read, is an ArchiveError naming the archive; the folder
// is then removed again, so a bad archive leaves nothing behind.
Unpacked extract_archive(const std::filesystem::path& archive, const std::filesystem::path& target,
                         const ArchiveLimits& limits = {});

// `name` split at '/', checked and normalised: "./a//b" -> "a/b". Throws ArchiveError for an
// absolute name, a ".." that leaves the top, or an empty one ("", ".").
std::filesystem::path safe_entry_path(std::string_view name, const ArchiveLimits& limits = {});

// One entry to write: a regular file with `content` and permissions `mode`, or a link to `link`
// (hard when `hard`).
struct ArchiveEntry {
    std::string path, content, link;
    bool hard = false;
    unsigned mode = 0644;
};

// Writes an archive of exactly these entries (names unchecked, so tests and benchmarks can build
// hostile ones): a zip when the name ends in .zip, else a gzip-compressed tar.
void write_archive(const std::filesystem::path& file, const std::vector<ArchiveEntry>& entries);

}  // namespace blockcheck
