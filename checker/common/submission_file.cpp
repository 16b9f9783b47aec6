#include "checker/common/submission_file.hpp"

#include "checker/common/fd.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

namespace blockcheck {

namespace fs = std::filesystem;

namespace {

std::atomic<bool> openat2_allowed{true};  // false: the path walk, as on a kernel before 5.6

// `relative` opened beneath `dirfd` with `flags`, following no link at any step: openat2 with
// RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS where the kernel has it, else one
// openat with O_NOFOLLOW a step (no "..", no absolute path). -1 and errno on failure.
int open_beneath(int dirfd, const std::string& relative, int flags) {
    if (openat2_allowed) {
        open_how how{};
        how.flags = static_cast<std::uint64_t>(flags | O_CLOEXEC | O_NOFOLLOW);
        how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
        const long fd = ::syscall(SYS_openat2, dirfd, relative.c_str(), &how, sizeof how);
        if (fd >= 0 || (errno != ENOSYS && errno != EPERM)) return static_cast<int>(fd);  // EPERM: a seccomp filter
    }
    if (relative.empty() || relative.front() == '/') return errno = EXDEV, -1;
    Fd at;
    int current = dirfd;
    std::size_t start = 0;
    for (std::size_t slash = relative.find('/'); slash != std::string::npos; slash = relative.find('/', start)) {
        const std::string step = relative.substr(start, slash - start);
        start = slash + 1;
        if (step.empty() || step == ".") continue;
        if (step == "..") return errno = EXDEV, -1;
        Fd next(::openat(current, step.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!next) return -1;
        at = std::move(next);
        current = at.get();
    }
    const std::string last = relative.substr(start);
    if (last.empty() || last == "." || last == "..") return errno = EXDEV, -1;
    return ::openat(current, last.c_str(), flags | O_CLOEXEC | O_NOFOLLOW);
}

// A file system of the kernel's own (its files' sizes lie, their reads block or have effects).
bool pseudo_file_system(int fd) {
    struct statfs fs_info {};
    if (::fstatfs(fd, &fs_info) != 0) return true;
    switch (static_cast<unsigned long>(fs_info.f_type)) {
        case PROC_SUPER_MAGIC: case SYSFS_MAGIC: case DEBUGFS_MAGIC: case SECURITYFS_MAGIC: case TRACEFS_MAGIC:
        case CGROUP_SUPER_MAGIC: case CGROUP2_SUPER_MAGIC: case EFIVARFS_MAGIC: case BPF_FS_MAGIC:
            return true;
        default: return false;
    }
}

Text link_problem(const std::string& shown) {
    return {shown + " is a link; links are not graded; hand in the file",
            shown + " 是链接；链接不评分；请提交文件本身"};
}

Text kind_problem(const std::string& shown, const struct stat& st) {
    const char* kind = S_ISDIR(st.st_mode)    ? "a folder"
                       : S_ISFIFO(st.st_mode) ? "a pipe"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                       : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                                    : "not a regular file";
    return {shown + " is " + kind + ", not a regular file: not read",
            shown + " 不是普通文件：未读取"};
}

// What `relative` is without following it: a link, another kind, or a regular file.
bool is_link_beneath(int dirfd, const std::string& relative) {
    struct stat st {};
    const std::size_t slash = relative.rfind('/');
    if (slash == std::string::npos) return ::fstatat(dirfd, relative.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
    const Fd parent(open_beneath(dirfd, relative.substr(0, slash), O_PATH | O_DIRECTORY));
    if (!parent) return errno == ELOOP || errno == ENOTDIR;  // a link on the way
    return ::fstatat(parent.get(), relative.c_str() + slash + 1, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
}

// Reads at most `size` bytes from `fd` (a regular file: it never blocks; a file that shrank gives less).
std::optional<std::string> read_up_to(int fd, std::uintmax_t size) {
    std::string bytes(static_cast<std::size_t>(size), '\0');
    std::size_t have = 0;
    while (have < bytes.size()) {
        const ssize_t n = ::read(fd, bytes.data() + have, bytes.size() - have);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return std::nullopt;
        if (n == 0) break;
        have += static_cast<std::size_t>(n);
    }
    bytes.resize(have);
    return bytes;
}

// The one read of a submission's file: `relative` beneath `dirfd`, shown as `shown`.
SubmissionRead read_beneath(int dirfd, const std::string& relative, const std::string& shown, std::uintmax_t max_bytes,
                            Links links) {
    SubmissionRead result;
    constexpr int read_flags = O_RDONLY | O_NONBLOCK | O_NOCTTY;
    // First without opening it for reading (a device's open has effects), then for reading. With
    // O_PATH | O_NOFOLLOW a link at the end is opened itself; a link on the way fails with ELOOP
    // (openat2) or ENOTDIR (the walk).
    Fd probe(open_beneath(dirfd, relative, O_PATH));
    const int error = errno;
    struct stat st {};
    const bool link = probe ? ::fstat(probe.get(), &st) == 0 && S_ISLNK(st.st_mode)
                            : error == ELOOP || (error == ENOTDIR && is_link_beneath(dirfd, relative));
    const bool followed = link && links == Links::follow_and_report;
    if (link && !followed) return result.problem = link_problem(shown), result;
    if (followed) probe = Fd(::openat(dirfd, relative.c_str(), O_PATH | O_CLOEXEC));
    if (!probe) {
        const int why = followed ? errno : error;
        if (why == EXDEV)
            result.problem = {shown + " lies outside the submission: not read", shown + " 位于提交之外：未读取"};
        else
            result.problem = {shown + ": cannot open (" + std::strerror(why) + ")",
                              shown + "：无法打开（" + std::strerror(why) + "）"};
        return result;
    }
    if (::fstat(probe.get(), &st) != 0 || !S_ISREG(st.st_mode)) return result.problem = kind_problem(shown, st), result;
    if (pseudo_file_system(probe.get()))
        return result.problem = {shown + " lies on a kernel file system (/proc, /sys): not read",
                                 shown + " 位于内核文件系统（/proc、/sys）：未读取"},
               result;
    const Fd fd(followed ? ::openat(dirfd, relative.c_str(), read_flags | O_CLOEXEC) : open_beneath(dirfd, relative, read_flags));
    struct stat opened {};
    if (!fd || ::fstat(fd.get(), &opened) != 0 || opened.st_dev != st.st_dev || opened.st_ino != st.st_ino ||
        !S_ISREG(opened.st_mode))
        return result.problem = {shown + ": cannot read (it changed while it was opened, or its mode forbids it)",
                                 shown + "：无法读取（打开时被改动，或权限不允许）"},
               result;
    const auto size = static_cast<std::uintmax_t>(opened.st_size);
    if (size > max_bytes)
        return result.problem = {shown + " is larger than " + std::to_string(max_bytes >> 10) + " KiB: not read",
                                 shown + " 超过 " + std::to_string(max_bytes >> 10) + " KiB：未读取"},
               result;
    auto bytes = read_up_to(fd.get(), size);
    if (!bytes)
        return result.problem = {shown + ": cannot read (" + std::strerror(errno) + ")",
                                 shown + "：无法读取（" + std::strerror(errno) + "）"},
               result;
    if (followed)
        result.note = {shown + " is a link: read here, but the grader does not follow links; hand in the file",
                       shown + " 是链接：此处已读取，但评分时不跟随链接；请提交文件本身"};
    const Digest hash = content_hash(*bytes);
    result.file = SubmissionFile{relative, std::move(*bytes), hash};
    return result;
}

bool header_name(const std::string& name) {
    const std::string ext = fs::path(name).extension().string();
    return ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".hxx";
}

// The names of the header files directly in the folder `dirfd`, sorted.
std::vector<std::string> header_names(int dirfd) {
    std::vector<std::string> names;
    const int listing = ::openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (listing < 0) return names;
    DIR* dir = ::fdopendir(listing);
    if (!dir) {
        ::close(listing);
        return names;
    }
    while (const dirent* entry = ::readdir(dir))
        if (header_name(entry->d_name)) names.emplace_back(entry->d_name);
    ::closedir(dir);
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

void use_openat2_for_submissions(bool allowed) { openat2_allowed = allowed; }

SubmissionRead open_submission_file(const fs::path& folder, const std::string& relative, std::uintmax_t max_bytes,
                                    Links links) {
    const Fd root(::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!root) {
        SubmissionRead result;
        result.problem = {relative + ": the submission's folder cannot be opened", relative + "：无法打开提交的文件夹"};
        return result;
    }
    return read_beneath(root.get(), relative, relative, max_bytes, links);
}

SubmittedProgram read_program(const fs::path& folder, const std::string& relative_source, Links links) {
    SubmittedProgram program;
    const Fd root(::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!root) {
        program.problem = {relative_source + ": the submission's folder cannot be opened",
                           relative_source + "：无法打开提交的文件夹"};
        return program;
    }
    SubmissionRead source = read_beneath(root.get(), relative_source, relative_source, max_submitted_source_bytes, links);
    if (!source.file) {
        program.problem = source.problem;
        return program;
    }
    program.source = std::move(*source.file);
    if (!source.note.en.empty()) program.notes.push_back(source.note);
    const std::size_t slash = relative_source.rfind('/');
    const std::string beside = slash == std::string::npos ? "" : relative_source.substr(0, slash + 1);
    const Fd dir(beside.empty() ? ::openat(root.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                                : open_beneath(root.get(), beside.substr(0, beside.size() - 1), O_RDONLY | O_DIRECTORY));
    if (!dir) return program;
    std::uintmax_t total = 0;
    for (const std::string& name : header_names(dir.get())) {
        if (program.headers.size() == max_submitted_headers) {
            program.notes.push_back({"more than " + std::to_string(max_submitted_headers) + " headers beside " + relative_source +
                                         ": the rest were not read",
                                     relative_source + " 旁的头文件超过 " + std::to_string(max_submitted_headers) + " 个：其余未读取"});
            break;
        }
        SubmissionRead header = read_beneath(dir.get(), name, beside + name, max_submitted_header_bytes, links);
        if (header.file && total + header.file->size() > max_submitted_headers_bytes)
            header = {{}, {beside + name + ": the headers beside the source pass 4 MiB together: not read",
                           beside + name + "：源文件旁的头文件合计超过 4 MiB：未读取"}, {}};
        if (!header.note.en.empty()) program.notes.push_back(header.note);
        if (!header.file) {
            program.notes.push_back(header.problem);
            continue;
        }
        total += header.file->size();
        header.file->name = beside + name;
        program.headers.push_back(std::move(*header.file));
    }
    return program;
}

std::string notes_text(const std::vector<Text>& notes, Lang lang) {
    std::string text;
    for (const Text& note : notes) text += note.in(lang) + "\n";
    return text;
}

}  // namespace blockcheck
