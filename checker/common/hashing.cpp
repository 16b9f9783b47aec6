#include "checker/common/hashing.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace blockcheck {

namespace fs = std::filesystem;

std::uint64_t content_hash(std::string_view bytes, std::uint64_t seed) {
    std::uint64_t hash = seed;
    for (unsigned char byte : bytes) {
        hash ^= byte;
        hash *= 1099511628211ull;
    }
    return hash;
}

std::uint64_t hash_field(std::uint64_t hash, std::string_view field) {
    hash = content_hash(std::to_string(field.size()) + ":", hash);
    return content_hash(field, hash);
}

std::string hex(std::uint64_t hash) { return fmt::format("{:016x}", hash); }

namespace {

// The executable PATH resolves `name` to (empty when not found).
fs::path find_in_path(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string_view dirs = path ? path : "/usr/bin:/bin";
    while (!dirs.empty()) {
        const auto colon = dirs.find(':');
        const fs::path candidate = fs::path(dirs.substr(0, colon)) / name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
        dirs = colon == std::string_view::npos ? std::string_view{} : dirs.substr(colon + 1);
    }
    return {};
}

}  // namespace

std::string compiler_identity(const std::string& compiler) {
    std::error_code ec;
    const fs::path real = fs::canonical(find_in_path(compiler), ec);
    if (ec) return compiler;
    const auto size = fs::file_size(real, ec);
    const auto mtime = fs::last_write_time(real, ec).time_since_epoch().count();
    return real.string() + "|" + std::to_string(size) + "|" + std::to_string(mtime);
}

}  // namespace blockcheck
