#include "checker/run/run_cache.hpp"

#include "checker/common/fd.hpp"
#include "checker/common/files.hpp"
#include "checker/common/hashing.hpp"
#include "checker/run/jail_protocol.hpp"

#include <fcntl.h>

#include <optional>
#include <string>

namespace blockcheck {

namespace {

std::filesystem::path record_path(const std::filesystem::path& binary, std::string_view input, const Limits& limits) {
    std::uint64_t hash = content_hash("blockcheck-run-1");
    hash = hash_field(hash, input);
    for (const double seconds : {limits.cpu_seconds, limits.wall_seconds}) hash = hash_field(hash, std::to_string(seconds));
    for (const std::size_t bytes : {limits.memory_bytes, limits.output_bytes, limits.file_bytes})
        hash = hash_field(hash, std::to_string(bytes));
    for (const int count : {limits.open_files, limits.processes}) hash = hash_field(hash, std::to_string(count));
    return binary.string() + ".run-" + hex(hash);
}

std::optional<RunResult> read_record(const std::filesystem::path& path) {
    const Fd file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!file) return std::nullopt;
    auto run = jail_protocol::read_reply(file.get(), std::nullopt);
    if (run && run->status != RunStatus::exited) return std::nullopt;
    return run;
}

}  // namespace

RunResult run_remembered(const std::filesystem::path& binary, std::string_view input, const Limits& limits) {
    const std::filesystem::path record = record_path(binary, input, limits);
    if (auto earlier = read_record(record)) return *earlier;
    RunResult run = run_process({binary.string()}, input, limits);
    if (run.status == RunStatus::exited) {
        try {
            write_file_atomically(record, jail_protocol::encode(run));
        } catch (const FileWriteError&) {
            // a cache that cannot be written only costs a run
        }
    }
    return run;
}

}  // namespace blockcheck
