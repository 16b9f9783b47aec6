// The jail session's messages: encoding into one buffer, and reading back with a deadline.
#include "checker/run/detail/jail_protocol.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <type_traits>

namespace blockcheck::jail_protocol {

namespace {

// Programs and outputs are far below this; a larger length means a broken stream.
constexpr std::uint64_t max_field_bytes = std::uint64_t{1} << 30;

template <class T>
void put(std::string& out, T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void put_bytes(std::string& out, const std::string& bytes) {
    put<std::uint64_t>(out, bytes.size());
    out += bytes;
}

// Reads exactly `n` bytes; false at end of file, on an error, or past the deadline.
bool read_exact(int fd, char* into, std::size_t n, const Deadline& deadline) {
    while (n > 0) {
        if (deadline) {
            const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return false;
            pollfd p{fd, POLLIN, 0};
            const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 60'000)));
            if (ready < 0 && errno == EINTR) continue;
            if (ready < 0) return false;
            if (ready == 0) continue;
        }
        const ssize_t got = ::read(fd, into, n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        into += got;
        n -= static_cast<std::size_t>(got);
    }
    return true;
}

class Reader {
public:
    Reader(int fd, Deadline deadline) : fd_(fd), deadline_(deadline) {}

    template <class T>
    bool get(T& value) {
        return ok_ = ok_ && read_exact(fd_, reinterpret_cast<char*>(&value), sizeof value, deadline_);
    }
    bool get_bytes(std::string& bytes) {
        std::uint64_t size = 0;
        if (!get(size) || size > max_field_bytes) return ok_ = false;
        bytes.resize(size);
        return ok_ = read_exact(fd_, bytes.data(), bytes.size(), deadline_);
    }

private:
    int fd_;
    Deadline deadline_;
    bool ok_ = true;
};

}  // namespace

std::string encode(const Request& r) {
    std::string out;
    put(out, r.uid);
    put(out, r.limits.cpu_seconds);
    put(out, r.limits.wall_seconds);
    put<std::uint64_t>(out, r.limits.memory_bytes);
    put<std::uint64_t>(out, r.limits.output_bytes);
    put<std::uint64_t>(out, r.limits.file_bytes);
    put<std::int64_t>(out, r.limits.open_files);
    put<std::int64_t>(out, r.limits.processes);
    put_bytes(out, r.binary);
    put_bytes(out, r.input);
    return out;
}

std::string encode(const RunResult& r) {
    std::string out;
    put<std::int32_t>(out, static_cast<std::int32_t>(r.status));
    put<std::int32_t>(out, r.exit_code);
    put<std::int32_t>(out, r.signal);
    put(out, r.wall_seconds);
    put(out, r.cpu_seconds);
    put_bytes(out, r.out);
    put_bytes(out, r.err);
    put_bytes(out, r.error);
    return out;
}

std::optional<Request> read_request(int fd) {
    Reader in(fd, std::nullopt);
    Request r;
    std::uint64_t memory = 0, output = 0, file = 0;
    std::int64_t open_files = 0, processes = 0;
    const bool ok = in.get(r.uid) && in.get(r.limits.cpu_seconds) && in.get(r.limits.wall_seconds) && in.get(memory) &&
                    in.get(output) && in.get(file) && in.get(open_files) && in.get(processes) &&
                    in.get_bytes(r.binary) && in.get_bytes(r.input);
    if (!ok) return std::nullopt;
    r.limits.memory_bytes = memory;
    r.limits.output_bytes = output;
    r.limits.file_bytes = file;
    r.limits.open_files = static_cast<int>(open_files);
    r.limits.processes = static_cast<int>(processes);
    return r;
}

std::optional<RunResult> read_reply(int fd, Deadline deadline) {
    Reader in(fd, deadline);
    RunResult r;
    std::int32_t status = 0;
    const bool ok = in.get(status) && in.get(r.exit_code) && in.get(r.signal) && in.get(r.wall_seconds) &&
                    in.get(r.cpu_seconds) && in.get_bytes(r.out) && in.get_bytes(r.err) && in.get_bytes(r.error);
    if (!ok || status < 0 || status > static_cast<std::int32_t>(RunStatus::failed_to_start)) return std::nullopt;
    r.status = static_cast<RunStatus>(status);
    return r;
}

bool send_all(int fd, const std::string& bytes) {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        sent += static_cast<std::size_t>(n);
    }
    return true;
}

}  // namespace blockcheck::jail_protocol
