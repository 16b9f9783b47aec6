#include "checker/run/run_cache.hpp"

#include "checker/common/fd.hpp"
#include "checker/common/files.hpp"
#include "checker/common/hashing.hpp"
#include "checker/run/cache_seal.hpp"
#include "checker/run/detail/jail_protocol.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <optional>
#include <string>

namespace blockcheck {

namespace {

constexpr std::string_view record_header = "blockcheck-run-2\n";
constexpr std::size_t tag_digits = 64;

std::string limits_text(const Limits& limits) {
    std::string text;
    for (const double seconds : {limits.cpu_seconds, limits.wall_seconds}) text += std::to_string(seconds) + "|";
    for (const std::size_t bytes : {limits.memory_bytes, limits.output_bytes, limits.file_bytes}) text += std::to_string(bytes) + "|";
    for (const int count : {limits.open_files, limits.processes}) text += std::to_string(count) + "|";
    return text;
}

std::filesystem::path record_path(const std::filesystem::path& binary, std::string_view input, const Limits& limits) {
    return binary.string() + ".run-" + Hasher().field(record_header).field(input).field(limits_text(limits)).hex();
}

// The tag that vouches for a record: HMAC under this user's cache secret of the binary's bytes,
// the input, the limits and what the run gave.
std::string record_tag(std::string_view binary_bytes, std::string_view input, const Limits& limits, std::string_view reply) {
    return Hasher::keyed(cache_secret()).field(record_header).field(binary_bytes).field(input).field(limits_text(limits)).field(reply).hex();
}

// The record's run, when its tag vouches for it. The bytes checked and the bytes decoded are
// those of one open file (records are replaced by rename, never rewritten in place).
std::optional<RunResult> read_record(const std::filesystem::path& record, std::string_view binary_bytes, std::string_view input,
                                     const Limits& limits) {
    const Fd file(::open(record.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
    if (!file) return std::nullopt;
    const auto text = read_file_if_readable("/proc/self/fd/" + std::to_string(file.get()));
    const std::size_t head = record_header.size() + tag_digits + 1;
    if (!text || text->size() < head || !text->starts_with(record_header)) return std::nullopt;
    const std::string_view reply = std::string_view(*text).substr(head);
    const std::string_view tag = std::string_view(*text).substr(record_header.size(), tag_digits);
    if (!same_bytes(tag, record_tag(binary_bytes, input, limits, reply))) return std::nullopt;  // not a record of ours
    if (::lseek(file.get(), static_cast<off_t>(head), SEEK_SET) != static_cast<off_t>(head)) return std::nullopt;
    auto run = jail_protocol::read_reply(file.get(), std::nullopt);
    if (run && run->status != RunStatus::exited) return std::nullopt;
    return run;
}

}  // namespace

RunResult run_remembered(const std::filesystem::path& binary, std::string_view input, const Limits& limits) {
    const std::filesystem::path record = record_path(binary, input, limits);
    const auto binary_bytes = read_file_if_readable(binary);
    if (binary_bytes)
        if (auto earlier = read_record(record, *binary_bytes, input, limits)) return *earlier;
    RunResult run = run_process({binary.string()}, input, limits);
    if (run.status == RunStatus::exited && binary_bytes) {
        const std::string reply = jail_protocol::encode(run);
        try {
            write_file_atomically(record, std::string(record_header) + record_tag(*binary_bytes, input, limits, reply) + "\n" + reply);
        } catch (const FileWriteError&) {
            // a cache that cannot be written only costs a run
        }
    }
    return run;
}

}  // namespace blockcheck
