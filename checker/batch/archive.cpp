// Safe unpacking with libarchive: every entry's name is checked and normalised before anything
// is written, files are created with O_NOFOLLOW below a folder that holds no links, and the
// content is counted as it is read, so a zip bomb that lies about its sizes still stops.
#include "checker/batch/archive.hpp"

#include "checker/common/fd.hpp"
#include "checker/outputs/student_id.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <memory>

namespace blockcheck {

namespace fs = std::filesystem;

namespace {

bool ends_with_nocase(std::string_view text, std::string_view suffix) {
    if (text.size() < suffix.size()) return false;
    return std::equal(suffix.begin(), suffix.end(), text.end() - static_cast<std::ptrdiff_t>(suffix.size()),
                      [](char wanted, char c) { return std::tolower(static_cast<unsigned char>(c)) == wanted; });
}

constexpr std::array<std::string_view, 4> archive_extensions{".tar.gz", ".tgz", ".zip", ".tar"};

std::string error_text(archive* a) {
    const char* text = archive_error_string(a);
    return text ? text : "unknown error";
}

struct ReadCloser {
    void operator()(archive* a) const { archive_read_free(a); }
};

// Removes the target again unless release() was called.
class Cleanup {
public:
    explicit Cleanup(fs::path dir) : dir_(std::move(dir)) {}
    ~Cleanup() {
        if (dir_.empty()) return;
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }
    void release() { dir_.clear(); }

private:
    fs::path dir_;
};

// Creates each folder of `relative` below `root` (which holds no links: this module never makes any).
void make_folders(const fs::path& root, const fs::path& relative, const std::string& where) {
    fs::path at = root;
    for (const fs::path& part : relative) {
        at /= part;
        if (::mkdir(at.c_str(), 0755) == 0) continue;
        struct stat st {};
        if (errno == EEXIST && ::lstat(at.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) continue;
        throw ArchiveError(where + ": cannot create folder '" + part.string() + "': " +
                           (errno == EEXIST ? "a file of that name is already there" : std::strerror(errno)));
    }
}

class Extractor {
public:
    Extractor(const fs::path& archive, const fs::path& target, const ArchiveLimits& limits)
        : name_(archive.filename().string()), target_(target), limits_(limits) {}

    Unpacked run(const fs::path& archive_path) {
        std::unique_ptr<archive, ReadCloser> reader(archive_read_new());
        if (!reader) throw std::runtime_error("libarchive: cannot allocate a reader");
        // Only the formats the name says (libarchive would otherwise sniff any of its ~20 formats from
        // the content: a 7-Zip symlink body or an ar string table is read whole into memory before any
        // limit of ours applies, so a 2 KB "zip" cost the grader gigabytes). zip: stored/deflate
        // members, link bodies capped by libarchive; tar: headers capped at 1 MiB by libarchive.
        archive_read_support_format_empty(reader.get());  // an empty archive is an empty submission
        if (ends_with_nocase(name_, ".zip")) {
            archive_read_support_format_zip(reader.get());
        } else {
            archive_read_support_format_tar(reader.get());
            if (!ends_with_nocase(name_, ".tar")) archive_read_support_filter_gzip(reader.get());
        }
        if (archive_read_open_filename(reader.get(), archive_path.c_str(), 1 << 16) != ARCHIVE_OK)
            throw ArchiveError(name_ + ": not a readable archive (" + error_of(reader.get()) + ")");
        for (;;) {
            archive_entry* entry = nullptr;
            const int status = archive_read_next_header(reader.get(), &entry);
            if (status == ARCHIVE_EOF) break;
            if (status < ARCHIVE_WARN) throw ArchiveError(name_ + ": damaged archive (" + error_of(reader.get()) + ")");
            entry_(reader.get(), entry);
        }
        return result_;
    }

private:
    static std::string error_of(archive* a) {
        const char* text = archive_error_string(a);
        return text ? text : "unknown error";
    }

    // One entry: written when it is a folder or a regular file whose name stays inside; any other
    // (a link of any kind, a device, a name that leaves the folder, content past the byte cap) is
    // not written, and `skipped` says why, naming it: the rest of the archive is still unpacked.
    void entry_(archive* reader, archive_entry* entry) {
        const char* raw = archive_entry_pathname(entry);
        const std::string name = raw ? raw : "";
        if (++result_.files > limits_.max_files)
            throw ArchiveError(printable_id(name_) + ": more than " + std::to_string(limits_.max_files) + " entries");
        const std::string shown = printable_id(name);
        const bool folder = archive_entry_filetype(entry) == AE_IFDIR;
        fs::path relative;
        try {
            relative = safe_entry_path(name, limits_);
        } catch (const ArchiveError& e) {
            if (folder && std::string_view(e.what()) == "empty path") return;  // "./", the top itself
            return skip_(shown, e.what() + std::string(": not unpacked"));
        }
        if (const char* hard = archive_entry_hardlink(entry))
            return skip_(shown, "a hard link to '" + printable_id(hard) + "': links are not unpacked");
        const std::string where = printable_id(name_) + ": entry '" + shown + "'";
        switch (archive_entry_filetype(entry)) {
            case AE_IFDIR: make_folders(target_, relative, where); return;
            case AE_IFREG: return write_file_(reader, relative, shown, where);
            case AE_IFLNK: {
                const char* to = archive_entry_symlink(entry);
                return skip_(shown, "a link to '" + printable_id(to ? to : "") + "': links are not unpacked");
            }
            default: return skip_(shown, "a device, pipe or socket: not unpacked");
        }
    }

    void skip_(const std::string& shown, const std::string& why) { result_.skipped.push_back(shown + ": " + why); }

    // A regular file's content, counted as read: the file that passes the byte cap is removed again,
    // and no later file is written (each is listed as skipped).
    void write_file_(archive* reader, const fs::path& relative, const std::string& shown, const std::string& where) {
        const std::string cap = std::to_string(limits_.max_total_bytes >> 20) + " MiB";
        if (over_cap_) return skip_(shown, "not unpacked: the archive's files pass " + cap + " before it");
        make_folders(target_, relative.parent_path(), where);
        const fs::path path = target_ / relative;
        Fd file(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644));
        if (!file) throw ArchiveError(where + ": cannot be written: " + std::strerror(errno));
        const int fd = file.get();
        const std::size_t before = result_.bytes;
        char buffer[1 << 16];
        for (;;) {
            const la_ssize_t n = archive_read_data(reader, buffer, sizeof buffer);
            if (n == 0) return;
            if (n < 0) throw ArchiveError(where + ": cannot be read (" + error_of(reader) + ")");
            result_.bytes += static_cast<std::size_t>(n);
            if (result_.bytes > limits_.max_total_bytes) {
                file = Fd();
                ::unlink(path.c_str());
                result_.bytes = before, over_cap_ = true;
                return skip_(shown, "unpacks past " + cap + " (the limit of a submission): not unpacked");
            }
            for (la_ssize_t done = 0; done < n;) {
                const ssize_t w = ::write(fd, buffer + done, static_cast<std::size_t>(n - done));
                if (w < 0 && errno == EINTR) continue;
                if (w < 0) throw std::runtime_error("cannot write '" + path.string() + "': " + std::strerror(errno));
                done += w;
            }
        }
    }

    std::string name_;
    fs::path target_;
    const ArchiveLimits& limits_;
    Unpacked result_;
    bool over_cap_ = false;  // a file passed max_total_bytes: nothing more is written
};

}  // namespace

bool is_archive_name(std::string_view file_name) {
    return std::any_of(archive_extensions.begin(), archive_extensions.end(), [&](std::string_view ext) {
        return file_name.size() > ext.size() && ends_with_nocase(file_name, ext);
    });
}

std::string archive_stem(std::string_view file_name) {
    for (std::string_view ext : archive_extensions)
        if (file_name.size() > ext.size() && ends_with_nocase(file_name, ext))
            return std::string(file_name.substr(0, file_name.size() - ext.size()));
    return std::string(file_name);
}

fs::path safe_entry_path(std::string_view name, const ArchiveLimits& limits) {
    if (name.size() > limits.max_path_bytes) throw ArchiveError("name longer than " + std::to_string(limits.max_path_bytes) + " bytes");
    std::string text(name);
    std::replace(text.begin(), text.end(), '\\', '/');  // zips made on Windows
    if (text.starts_with('/') || (text.size() >= 2 && text[1] == ':')) throw ArchiveError("absolute path");
    if (text.find('\0') != std::string::npos) throw ArchiveError("NUL byte in the name");
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('/', start), text.size());
        std::string part = text.substr(start, end - start);
        if (part == "..") {
            if (parts.empty()) throw ArchiveError("path leaves the submission folder");
            parts.pop_back();
        } else if (!part.empty() && part != ".") {
            parts.push_back(std::move(part));
        }
        start = end + 1;
    }
    if (parts.empty()) throw ArchiveError("empty path");
    if (parts.size() > limits.max_depth) throw ArchiveError("more than " + std::to_string(limits.max_depth) + " folders deep");
    fs::path path;
    for (const std::string& part : parts) path /= part;
    return path;
}

void write_archive(const fs::path& file, const std::vector<ArchiveEntry>& entries) {
    struct WriteCloser {
        void operator()(archive* a) const { archive_write_free(a); }
    };
    std::unique_ptr<archive, WriteCloser> writer(archive_write_new());
    const bool zip = ends_with_nocase(file.filename().string(), ".zip");
    if (zip) {
        archive_write_set_format_zip(writer.get());
    } else {
        archive_write_add_filter_gzip(writer.get());
        archive_write_set_format_pax_restricted(writer.get());
    }
    auto check = [&](int status, const std::string& what) {
        if (status < ARCHIVE_WARN) throw std::runtime_error("cannot write " + file.string() + ": " + what + ": " + error_text(writer.get()));
    };
    check(archive_write_open_filename(writer.get(), file.c_str()), "open");
    for (const ArchiveEntry& e : entries) {
        std::unique_ptr<archive_entry, decltype(&archive_entry_free)> entry(archive_entry_new(), &archive_entry_free);
        archive_entry_set_pathname(entry.get(), e.path.c_str());
        archive_entry_set_perm(entry.get(), e.mode);
        if (!e.link.empty() && e.hard) {
            archive_entry_set_filetype(entry.get(), AE_IFREG);
            archive_entry_set_hardlink(entry.get(), e.link.c_str());
            archive_entry_set_size(entry.get(), 0);
        } else if (!e.link.empty()) {
            archive_entry_set_filetype(entry.get(), AE_IFLNK);
            archive_entry_set_symlink(entry.get(), e.link.c_str());
            archive_entry_set_perm(entry.get(), 0777);
        } else {
            archive_entry_set_filetype(entry.get(), AE_IFREG);
            archive_entry_set_size(entry.get(), static_cast<la_int64_t>(e.content.size()));
        }
        check(archive_write_header(writer.get(), entry.get()), e.path);
        if (e.link.empty() && !e.content.empty() &&
            archive_write_data(writer.get(), e.content.data(), e.content.size()) < 0)
            check(ARCHIVE_FATAL, e.path);
    }
    check(archive_write_close(writer.get()), "close");
}

Unpacked extract_archive(const fs::path& archive, const fs::path& target, const ArchiveLimits& limits) {
    std::error_code ec;
    fs::create_directories(target, ec);
    if (ec || !fs::is_directory(target) || !fs::is_empty(target))
        throw std::runtime_error("cannot unpack into '" + target.string() + "': not a new empty folder");
    Cleanup cleanup(target);
    Unpacked unpacked = Extractor(archive, target, limits).run(archive);
    cleanup.release();
    return unpacked;
}

}  // namespace blockcheck
