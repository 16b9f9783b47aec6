// Content hashes for caches, fingerprints and seeds: SHA-256 (OpenSSL's libcrypto), fields joined
// so that they cannot run into each other, printed as 64 hex digits; HMAC-SHA-256 for what a
// cache must prove it wrote itself; and the identity of a compiler binary.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace blockcheck {

// A SHA-256 digest (or an HMAC-SHA-256 tag).
using Digest = std::array<std::uint8_t, 32>;

// An incremental SHA-256, or HMAC-SHA-256 under a key. Each field is added as its decimal length,
// ':', then its bytes, so that field("ab").field("c") never equals field("a").field("bc").
class Hasher {
public:
    Hasher();                                       // plain SHA-256
    static Hasher keyed(std::string_view key);      // HMAC-SHA-256 under `key`
    Hasher(Hasher&&) noexcept;
    Hasher& operator=(Hasher&&) noexcept;
    ~Hasher();

    Hasher& field(std::string_view bytes);
    Hasher& raw(std::string_view bytes);  // bytes as they are, no length: for fixed-size parts only
    Digest digest() const;                // of what was added so far (more can be added afterwards)
    std::string hex() const;

private:
    struct State;
    explicit Hasher(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

// SHA-256 of the bytes as they are.
Digest content_hash(std::string_view bytes);

// Chains a field onto a digest: SHA-256 of the digest, then the field length-prefixed.
Digest hash_field(const Digest& hash, std::string_view field);

// The digest as 64 lower-case hex digits.
std::string hex(const Digest& digest);

// The first 8 bytes of a digest, big-endian: for seeds, shard numbers and names, never a key.
std::uint64_t leading_u64(const Digest& digest);

// Equal bytes, compared in constant time for equal lengths (for tags: a timing must not tell how
// much of a forged tag matched).
bool same_bytes(std::string_view a, std::string_view b);

// `count` bytes from the operating system's random generator; throws std::runtime_error when it fails.
std::string random_bytes(std::size_t count);

// Which compiler binary PATH resolves `compiler` to, by a stat (cheap): "path|size|mtime" of
// the resolved file, or `compiler` itself when it is not found.
std::string compiler_identity(const std::string& compiler);

}  // namespace blockcheck
