#include "checker/run/cache_seal.hpp"

#include "checker/common/files.hpp"
#include "checker/common/hashing.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <exception>
#include <optional>

namespace blockcheck {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view seal_header = "blockcheck-seal-1\n";
constexpr std::size_t secret_bytes = 32;

// The secret in `file` when it is ours alone: a regular file (not a link) owned by this user,
// readable by nobody else, of the right size.
std::optional<std::string> read_secret(const fs::path& file) {
    struct stat st{};
    if (::lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() || (st.st_mode & 077) != 0 ||
        st.st_size != static_cast<off_t>(secret_bytes))
        return std::nullopt;
    auto secret = read_file_if_readable(file);
    if (!secret || secret->size() != secret_bytes) return std::nullopt;
    return secret;
}

// A new secret written to `file` (0600 in a folder 0700: the folder keeps others out while the
// file is written), read back so that two processes creating it at once end up trusting the same
// one (a lost race costs a rebuild, nothing more).
std::optional<std::string> create_secret(const fs::path& file) {
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    fs::permissions(file.parent_path(), fs::perms::owner_all, ec);
    if (ec) return std::nullopt;
    try {
        write_file_atomically(file, random_bytes(secret_bytes));
    } catch (const std::exception&) {
        return std::nullopt;
    }
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write, ec);
    return read_secret(file);
}

// The file's identity: "device|inode|size|mtime|ctime" (nanoseconds), of the file itself (not a link).
std::optional<std::string> identity(const fs::path& file) {
    struct stat st{};
    if (::lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    return std::to_string(st.st_dev) + "|" + std::to_string(st.st_ino) + "|" + std::to_string(st.st_size) + "|" +
           std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + "|" +
           std::to_string(st.st_ctim.tv_sec) + "." + std::to_string(st.st_ctim.tv_nsec);
}

// The bytes of `file` when it is itself a regular file: a link planted in the cache is never read
// through (nor is what it points to vouched for and then run), so its entry is rebuilt.
std::optional<std::string> own_bytes(const fs::path& file) {
    const Fd fd(::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat st{};
    if (!fd || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return std::nullopt;  // shrank or failed: not what was sealed
        done += static_cast<std::size_t>(n);
    }
    return bytes;
}

std::string seal_tag(std::string_view inputs, const std::vector<fs::path>& files, SealOf of, bool& readable) {
    Hasher mac = Hasher::keyed(cache_secret());
    mac.field(seal_header).field(inputs).field(of == SealOf::bytes ? "bytes" : "identity");
    readable = true;
    for (const fs::path& file : files) {
        const auto content = of == SealOf::bytes ? own_bytes(file) : identity(file);
        readable = readable && content.has_value();
        mac.field(file.filename().string()).field(content.value_or(""));
    }
    return mac.hex();
}

}  // namespace

fs::path cache_secret_path() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') return fs::path(xdg) / "blockcheck" / "cache-key";
    if (const char* home = std::getenv("HOME"); home && *home == '/') return fs::path(home) / ".cache" / "blockcheck" / "cache-key";
    return {};
}

const std::string& cache_secret() {
    static const std::string secret = [] {
        const fs::path file = cache_secret_path();
        if (!file.empty()) {
            if (auto kept = read_secret(file)) return *kept;
            if (auto made = create_secret(file)) return *made;
        }
        return random_bytes(secret_bytes);  // this process only
    }();
    return secret;
}

void write_seal(const fs::path& seal, std::string_view inputs, const std::vector<fs::path>& files, SealOf of) {
    bool readable = false;
    const std::string tag = seal_tag(inputs, files, of, readable);
    if (!readable) return;
    try {
        write_file_atomically(seal, std::string(seal_header) + tag + "\n" + std::string(inputs));
    } catch (const FileWriteError&) {
        // an entry that cannot be sealed is rebuilt next time
    }
}

bool seal_holds(const fs::path& seal, std::string_view inputs, const std::vector<fs::path>& files, SealOf of) {
    const auto text = read_file_if_readable(seal);
    constexpr std::size_t tag_digits = 64;
    const std::size_t head = seal_header.size() + tag_digits + 1;
    if (!text || text->size() < head || !text->starts_with(seal_header) || (*text)[head - 1] != '\n') return false;
    if (std::string_view(*text).substr(head) != inputs) return false;  // another source under this key
    bool readable = false;
    const std::string tag = seal_tag(inputs, files, of, readable);
    if (!readable) return false;
    return same_bytes(std::string_view(*text).substr(seal_header.size(), tag_digits), tag);
}

}  // namespace blockcheck
