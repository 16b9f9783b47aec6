#include "checker/batch/detail/output_lock.hpp"

#include "base/errors.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace blockcheck {

namespace fs = std::filesystem;

void make_private_folder(const fs::path& dir) {
    fs::create_directories(dir);
    fs::permissions(dir, fs::perms(0700));
}

OutputLock::OutputLock(const fs::path& out) {
    const fs::path file = out / ".grade-lock";
    fd_.reset(::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
    if (!fd_) throw InputFileError(file.string() + ": cannot open the lock file: " + std::strerror(errno));
    if (::flock(fd_.get(), LOCK_EX | LOCK_NB) != 0) {
        const int error = errno;
        char pid[32] = {};
        const ssize_t n = ::pread(fd_.get(), pid, sizeof pid - 1, 0);
        if (error != EWOULDBLOCK) throw InputFileError(file.string() + ": cannot lock: " + std::strerror(error));
        throw InputFileError(fmt::format("{}: another grader (pid {}) is writing into this folder; wait for it to "
                                         "finish, or give another --out",
                                         out.string(), n > 0 ? std::string(pid, static_cast<std::size_t>(n)) : "?"));
    }
    const std::string pid = std::to_string(::getpid());
    if (::ftruncate(fd_.get(), 0) != 0 || ::pwrite(fd_.get(), pid.data(), pid.size(), 0) < 0) {}  // the pid is only for the message
}

}  // namespace blockcheck
