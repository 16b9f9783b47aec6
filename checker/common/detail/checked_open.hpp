// The one way a file someone else handed in is opened (issues 31 and 40): a student's submission,
// a checkpoint folder an engineer downloaded, a file a user names on the command line. The path is
// resolved by a rule for links; the file is looked at first without being opened for reading
// (O_PATH, fstat: a pipe, a socket, a device or a folder is refused before any read, since a FIFO
// would block and a device's open has effects), then opened O_NONBLOCK and checked again on the
// open descriptor (a regular file, the same inode, not on a kernel file system such as /proc).
// submission_file.hpp and files.hpp (read_user_file, open_folder_file) are its two faces.
#pragma once

#include "base/text.hpp"
#include "checker/common/fd.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace blockcheck {

// Which links may be followed on the way to the file.
enum class LinkRule {
    none,     // no link anywhere on the path (what a class hands in)
    beneath,  // links followed while they resolve beneath the folder (a downloaded checkpoint folder)
    any,      // links followed wherever they lead (a file the user named; a student's own tree)
};

// Why a file was not opened.
enum class Refusal { none, link, outside, cannot_open, not_regular, kernel_file_system, changed };

// A regular file opened for reading, or why not.
struct CheckedFile {
    Fd fd;                      // O_RDONLY | O_NONBLOCK; open only when refusal is none
    std::uintmax_t size = 0;    // st_size on the open descriptor
    bool through_link = false;  // LinkRule::any: a link was followed to reach it
    Refusal refusal = Refusal::none;
    int error = 0;              // errno of Refusal::cannot_open
    std::string kind;           // Refusal::not_regular: "a pipe", "a device", "a folder", ...
};

// `relative` resolved from the folder `dirfd` under `rule` (with LinkRule::any also an absolute
// path, or one from AT_FDCWD).
CheckedFile open_checked(int dirfd, const std::string& relative, LinkRule rule);

// Why `file` (shown as `shown`, inside `container`: "the submission", "the folder") was refused,
// in both languages; empty for Refusal::none. Refusal::link is the caller's to word.
Text refusal_text(const CheckedFile& file, const std::string& shown, const Text& container);

// `relative` opened beneath `dirfd` with `flags` (O_PATH, O_RDONLY | O_DIRECTORY, ...), following no
// link at any step: openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS, else
// one openat with O_NOFOLLOW a step (no "..", no absolute path). -1 and errno on failure.
int open_no_links(int dirfd, const std::string& relative, int flags);

// At most `size` bytes of an open regular file (it never blocks; a file that shrank gives fewer).
std::optional<std::string> read_up_to(int fd, std::uintmax_t size);

// Tests only: false makes the opener walk the path with O_NOFOLLOW a step, as on a kernel without
// openat2 (and LinkRule::beneath check the resolved path instead).
void use_openat2(bool allowed);

}  // namespace blockcheck
