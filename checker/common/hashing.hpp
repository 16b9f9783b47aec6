// Content hashes for caches and fingerprints: FNV-1a over bytes, fields joined so that they
// cannot run into each other, printed as 16 hex digits; and the identity of a compiler binary.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace blockcheck {

// FNV-1a, 64 bits: stable across runs and machines. The default seed is FNV's offset basis.
std::uint64_t content_hash(std::string_view bytes, std::uint64_t seed = 14695981039346656037ull);

// Adds one field to a running hash, its length first: hash("ab", "c") != hash("a", "bc").
std::uint64_t hash_field(std::uint64_t hash, std::string_view field);

// The hash as 16 lower-case hex digits.
std::string hex(std::uint64_t hash);

// Which compiler binary PATH resolves `compiler` to, by a stat (cheap): "path|size|mtime" of
// the resolved file, or `compiler` itself when it is not found.
std::string compiler_identity(const std::string& compiler);

}  // namespace blockcheck
