// What the grader and the runner inside a jail session say to each other over their socket:
// a request (uid, limits, the program's bytes, its input) and a reply (a RunResult). Fields are
// fixed-size native numbers and length-prefixed byte strings; both ends are the same build.
#pragma once

#include "checker/run/process.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace blockcheck::jail_protocol {

struct Request {
    std::uint32_t uid = 0;
    Limits limits;
    std::string binary, input;
};

std::string encode(const Request& request);
std::string encode(const RunResult& reply);

// Reads one message from `fd`; nullopt at end of file, on a malformed message, or when
// `deadline` passes first (none: wait as long as it takes).
using Deadline = std::optional<std::chrono::steady_clock::time_point>;
std::optional<Request> read_request(int fd);
std::optional<RunResult> read_reply(int fd, Deadline deadline);

// Writes all of `bytes` (without SIGPIPE); false when the other end is gone.
bool send_all(int fd, const std::string& bytes);

}  // namespace blockcheck::jail_protocol
