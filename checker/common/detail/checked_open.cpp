#include "checker/common/detail/checked_open.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>

namespace blockcheck {

namespace {

std::atomic<bool> openat2_allowed{true};  // false: the path walk, as on a kernel before 5.6

// openat2 with `resolve`; -1 with errno ENOSYS where the kernel (or a seccomp filter) lacks it.
int open_resolved(int dirfd, const std::string& relative, int flags, std::uint64_t resolve) {
    if (!openat2_allowed) return errno = ENOSYS, -1;
    open_how how{};
    how.flags = static_cast<std::uint64_t>(flags | O_CLOEXEC);
    how.resolve = resolve;
    const long fd = ::syscall(SYS_openat2, dirfd, relative.c_str(), &how, sizeof how);
    if (fd < 0 && errno == EPERM) errno = ENOSYS;  // EPERM: a seccomp filter
    return static_cast<int>(fd);
}

}  // namespace

int open_no_links(int dirfd, const std::string& relative, int flags) {
    const int fd = open_resolved(dirfd, relative, flags | O_NOFOLLOW,
                                 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
    if (fd >= 0 || errno != ENOSYS) return fd;
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

namespace {

// Where an open descriptor's file is, by /proc ("" when /proc cannot say).
std::string path_of(int fd) {
    char target[PATH_MAX];
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    const ssize_t n = ::readlink(link.c_str(), target, sizeof target);
    return n > 0 && static_cast<std::size_t>(n) < sizeof target ? std::string(target, static_cast<std::size_t>(n)) : "";
}

// `relative` opened from `dirfd` following links only while they stay beneath it: openat2 with
// RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS, else the open followed by a check of where it landed.
int open_links_beneath(int dirfd, const std::string& relative, int flags) {
    const int fd = open_resolved(dirfd, relative, flags, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS);
    if (fd >= 0 || errno != ENOSYS) return fd;
    if (relative.empty() || relative.front() == '/') return errno = EXDEV, -1;
    const int opened = ::openat(dirfd, relative.c_str(), flags | O_CLOEXEC);
    if (opened < 0) return -1;
    const std::string folder = path_of(dirfd), landed = path_of(opened);
    if (folder.empty() || landed.size() <= folder.size() || landed.compare(0, folder.size(), folder) != 0 ||
        (folder != "/" && landed[folder.size()] != '/')) {
        ::close(opened);
        return errno = EXDEV, -1;
    }
    return opened;
}

int open_by_rule(int dirfd, const std::string& relative, int flags, LinkRule rule) {
    switch (rule) {
        case LinkRule::none: return open_no_links(dirfd, relative, flags);
        case LinkRule::beneath: return open_links_beneath(dirfd, relative, flags);
        case LinkRule::any: return ::openat(dirfd, relative.c_str(), flags | O_CLOEXEC);
    }
    return errno = EINVAL, -1;
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

const char* kind_of(const struct stat& st) {
    return S_ISDIR(st.st_mode)                          ? "a folder"
           : S_ISFIFO(st.st_mode)                       ? "a pipe"
           : S_ISSOCK(st.st_mode)                       ? "a socket"
           : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                        : "not a regular file";
}

// Whether `relative` is a link, or has one on the way, without following any.
bool link_on_the_way(int dirfd, const std::string& relative) {
    if (relative.empty() || relative.front() == '/') return false;
    Fd probe(open_no_links(dirfd, relative, O_PATH));
    if (!probe) {
        if (errno == ELOOP) return true;
        const std::size_t slash = relative.rfind('/');
        if (errno != ENOTDIR || slash == std::string::npos) return false;
        const Fd parent(open_no_links(dirfd, relative.substr(0, slash), O_PATH | O_DIRECTORY));
        return !parent && (errno == ELOOP || errno == ENOTDIR);
    }
    struct stat st {};
    return ::fstat(probe.get(), &st) == 0 && S_ISLNK(st.st_mode);
}

CheckedFile refused(CheckedFile file, Refusal why, int error = 0) {
    file.fd.reset();
    file.refusal = why;
    file.error = error;
    return file;
}

}  // namespace

void use_openat2(bool allowed) { openat2_allowed = allowed; }

CheckedFile open_checked(int dirfd, const std::string& relative, LinkRule rule) {
    CheckedFile file;
    if (rule == LinkRule::any) file.through_link = link_on_the_way(dirfd, relative);
    // First without opening it for reading; with LinkRule::none a link at the end is opened itself
    // (O_PATH | O_NOFOLLOW), and a link on the way fails with ELOOP (openat2) or ENOTDIR (the walk).
    Fd probe(open_by_rule(dirfd, relative, O_PATH, rule));
    if (!probe) {
        const int error = errno;
        if (rule == LinkRule::none && (error == ELOOP || (error == ENOTDIR && link_on_the_way(dirfd, relative))))
            return refused(std::move(file), Refusal::link);
        if (error == EXDEV) return refused(std::move(file), Refusal::outside);
        if (rule == LinkRule::beneath && error == ELOOP) return refused(std::move(file), Refusal::link, error);
        return refused(std::move(file), Refusal::cannot_open, error);
    }
    struct stat st {};
    if (::fstat(probe.get(), &st) != 0) return refused(std::move(file), Refusal::cannot_open, errno);
    if (S_ISLNK(st.st_mode)) return refused(std::move(file), Refusal::link);
    if (!S_ISREG(st.st_mode)) {
        file.kind = kind_of(st);
        return refused(std::move(file), Refusal::not_regular);
    }
    if (pseudo_file_system(probe.get())) return refused(std::move(file), Refusal::kernel_file_system);
    file.fd = Fd(open_by_rule(dirfd, relative, O_RDONLY | O_NONBLOCK | O_NOCTTY, rule));
    struct stat opened {};
    if (!file.fd || ::fstat(file.fd.get(), &opened) != 0 || opened.st_dev != st.st_dev || opened.st_ino != st.st_ino ||
        !S_ISREG(opened.st_mode))
        return refused(std::move(file), Refusal::changed, errno);
    file.size = static_cast<std::uintmax_t>(opened.st_size);
    return file;
}

Text refusal_text(const CheckedFile& file, const std::string& shown, const Text& container) {
    switch (file.refusal) {
        case Refusal::none: return {};
        case Refusal::link:
            return {shown + " is a link that is not followed here", shown + " 是链接，此处不跟随"};
        case Refusal::outside:
            return {shown + " lies outside " + container.en + ": not read", shown + " 位于" + container.zh + "之外：未读取"};
        case Refusal::cannot_open:
            return {shown + ": cannot open (" + std::strerror(file.error) + ")",
                    shown + "：无法打开（" + std::strerror(file.error) + "）"};
        case Refusal::not_regular:
            return {shown + " is " + file.kind + ", not a regular file: not read", shown + " 不是普通文件：未读取"};
        case Refusal::kernel_file_system:
            return {shown + " lies on a kernel file system (/proc, /sys): not read",
                    shown + " 位于内核文件系统（/proc、/sys）：未读取"};
        case Refusal::changed:
            return {shown + ": cannot read (it changed while it was opened, or its mode forbids it)",
                    shown + "：无法读取（打开时被改动，或权限不允许）"};
    }
    return {};
}

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

}  // namespace blockcheck
