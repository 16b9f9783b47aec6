#include "checker/common/files.hpp"

#include "checker/common/detail/checked_open.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <utility>
#include <cstdint>
#include <cerrno>
#include <cstring>

namespace blockcheck {

namespace fs = std::filesystem;

namespace {

// The reason of a failed read or write: the last system error, or a fallback.
std::string reason(int error) { return error ? std::strerror(error) : "unknown error"; }

// Reads all of `fd`; the errno of a failed read, or 0.
int read_all(int fd, std::string& out) {
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n == 0) return 0;
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        out.append(buffer, static_cast<std::size_t>(n));
    }
}

// Reads the file; on failure returns nothing and sets `error` to the errno. A file larger than
// `max_bytes` is not read: `size` tells its size and `error` stays 0.
std::optional<std::string> read_whole(const fs::path& file, int& error, std::uintmax_t max_bytes = UINTMAX_MAX,
                                      std::uintmax_t* size = nullptr) {
    const Fd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd) {
        error = errno;
        return std::nullopt;
    }
    struct stat info {};
    if (max_bytes != UINTMAX_MAX && ::fstat(fd.get(), &info) == 0 &&
        static_cast<std::uintmax_t>(info.st_size) > max_bytes) {
        if (size) *size = static_cast<std::uintmax_t>(info.st_size);
        return std::nullopt;
    }
    std::string text;
    error = read_all(fd.get(), text);
    if (error) return std::nullopt;
    return text;
}

// Writes all of `content` to `fd`; the errno of a failed write, or 0.
int write_all(int fd, std::string_view content) {
    while (!content.empty()) {
        const ssize_t n = ::write(fd, content.data(), content.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        content.remove_prefix(static_cast<std::size_t>(n));
    }
    return 0;
}

// A name in `file`'s folder that no other thread or process uses at the same time.
fs::path temporary_beside(const fs::path& file) {
    static std::atomic<unsigned> counter{0};
    return file.parent_path() /
           (".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" + file.filename().string());
}

[[noreturn]] void write_failed(const fs::path& file, const fs::path& temporary, int error) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw FileWriteError("cannot write " + file.string() + ": " + reason(error));
}

// The checked file's bytes, refused beyond `max_bytes`; `shown` names it.
UserFile checked_or_thrown(CheckedFile opened, const std::string& shown, std::uintmax_t max_bytes) {
    if (opened.refusal == Refusal::link || opened.refusal == Refusal::outside)
        throw InputFileError(shown + " leads outside the folder (a link to a file elsewhere, or a path out of it): not "
                                     "read; copy the file into the folder");
    if (opened.refusal != Refusal::none) throw InputFileError(refusal_text(opened, shown, {"the folder", "文件夹"}).en);
    if (opened.size > max_bytes)
        throw InputFileError(shown + ": " + std::to_string(opened.size) + " bytes is beyond the limit of " +
                             std::to_string(max_bytes));
    return {std::move(opened.fd), opened.size};
}

std::string read_checked(const UserFile& file, const std::string& shown) {
    std::optional<std::string> bytes = read_up_to(file.fd.get(), file.size);
    if (!bytes) throw InputFileError(shown + ": cannot read (" + reason(errno) + ")");
    return std::move(*bytes);
}

// The folder links in `folder` may lead into, and `folder` seen from it: `folder` itself, or for a
// Hugging Face hub cache snapshot (.../models--X/snapshots/REV) the model's cache folder, since
// the snapshot's files are links to ../../blobs/HASH.
std::pair<fs::path, fs::path> link_root(const fs::path& folder) {
    const fs::path dir = folder.lexically_normal().has_filename() ? folder.lexically_normal()
                                                                   : folder.lexically_normal().parent_path();
    const fs::path snapshots = dir.parent_path();
    std::error_code ec;
    if (snapshots.filename() == "snapshots" && fs::is_directory(snapshots.parent_path() / "blobs", ec))
        return {snapshots.parent_path(), fs::path("snapshots") / dir.filename()};
    return {dir, fs::path()};
}

}  // namespace

std::string read_user_file(const fs::path& file, std::uintmax_t max_bytes) {
    CheckedFile checked = open_checked(AT_FDCWD, file.string(), LinkRule::any);
    if (checked.refusal == Refusal::cannot_open)  // as read_file says it
        throw InputFileError(file.string() + ": cannot read (" + reason(checked.error) + ")");
    const UserFile opened = checked_or_thrown(std::move(checked), file.string(), max_bytes);
    return read_checked(opened, file.string());
}

UserFile open_folder_file(const fs::path& folder, const std::string& name, std::uintmax_t max_bytes) {
    const std::string shown = (folder / name).string();
    const auto [root, inside] = link_root(folder);
    const Fd dir(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!dir) throw InputFileError(folder.string() + ": cannot open the folder (" + reason(errno) + ")");
    return checked_or_thrown(open_checked(dir.get(), (inside / name).string(), LinkRule::beneath), shown, max_bytes);
}

std::string read_folder_file(const fs::path& folder, const std::string& name, std::uintmax_t max_bytes) {
    return read_checked(open_folder_file(folder, name, max_bytes), (folder / name).string());
}

std::optional<std::string> read_folder_file_if_present(const fs::path& folder, const std::string& name,
                                                       std::uintmax_t max_bytes) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(folder / name, ec))) return std::nullopt;
    return read_folder_file(folder, name, max_bytes);
}

std::optional<std::string> read_file_if_readable(const fs::path& file) {
    int error = 0;
    return read_whole(file, error);
}

std::string read_file(const fs::path& file) {
    int error = 0;
    std::optional<std::string> text = read_whole(file, error);
    if (!text) throw InputFileError(file.string() + ": cannot read (" + reason(error) + ")");
    return std::move(*text);
}

std::string read_file(const fs::path& file, std::uintmax_t max_bytes) {
    int error = 0;
    std::uintmax_t size = 0;
    std::optional<std::string> text = read_whole(file, error, max_bytes, &size);
    if (text) return std::move(*text);
    if (!error)
        throw InputFileError(file.string() + ": " + std::to_string(size) + " bytes is beyond the limit of " +
                             std::to_string(max_bytes));
    throw InputFileError(file.string() + ": cannot read (" + reason(error) + ")");
}

void write_named_file(const fs::path& file, std::string_view content) {
    try {
        write_file_atomically(file, content);
    } catch (const FileWriteError& e) {
        throw InputFileError(e.what());
    }
}

void write_file_atomically(const fs::path& file, std::string_view content) {
    const fs::path temporary = temporary_beside(file);
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) write_failed(file, temporary, errno);
    int error = write_all(fd, content);
    if (!error && ::fsync(fd) != 0) error = errno;
    if (::close(fd) != 0 && !error) error = errno;
    if (error) write_failed(file, temporary, error);
    if (::rename(temporary.c_str(), file.c_str()) != 0) write_failed(file, temporary, errno);
}

}  // namespace blockcheck
