#include "checker/common/hashing.hpp"

#include <fmt/format.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace blockcheck {

namespace fs = std::filesystem;

// One of the two OpenSSL contexts: a digest's, or a MAC's.
struct Hasher::State {
    EVP_MD_CTX* md = nullptr;
    EVP_MAC_CTX* mac = nullptr;
    ~State() {
        EVP_MD_CTX_free(md);
        EVP_MAC_CTX_free(mac);
    }
};

namespace {

[[noreturn]] void crypto_failure(const char* what) { throw std::runtime_error(std::string("libcrypto: ") + what + " failed"); }

}  // namespace

Hasher::Hasher() : state_(std::make_unique<State>()) {
    state_->md = EVP_MD_CTX_new();
    if (!state_->md || EVP_DigestInit_ex(state_->md, EVP_sha256(), nullptr) != 1) crypto_failure("SHA-256 init");
}

Hasher::Hasher(std::unique_ptr<State> state) : state_(std::move(state)) {}

Hasher Hasher::keyed(std::string_view key) {
    auto state = std::make_unique<State>();
    EVP_MAC* hmac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    state->mac = hmac ? EVP_MAC_CTX_new(hmac) : nullptr;
    EVP_MAC_free(hmac);  // the context keeps its own reference
    char digest_name[] = "SHA256";
    const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest_name, 0), OSSL_PARAM_construct_end()};
    if (!state->mac ||
        EVP_MAC_init(state->mac, reinterpret_cast<const unsigned char*>(key.data()), key.size(), params) != 1)
        crypto_failure("HMAC-SHA-256 init");
    return Hasher(std::move(state));
}

Hasher::Hasher(Hasher&&) noexcept = default;
Hasher& Hasher::operator=(Hasher&&) noexcept = default;
Hasher::~Hasher() = default;

Hasher& Hasher::raw(std::string_view bytes) {
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    const bool ok = state_->md ? EVP_DigestUpdate(state_->md, data, bytes.size()) == 1
                               : EVP_MAC_update(state_->mac, data, bytes.size()) == 1;
    if (!ok) crypto_failure("hash update");
    return *this;
}

Hasher& Hasher::field(std::string_view bytes) { return raw(std::to_string(bytes.size()) + ":").raw(bytes); }

Digest Hasher::digest() const {
    Digest out{};
    if (state_->md) {
        EVP_MD_CTX* copy = EVP_MD_CTX_new();
        unsigned int size = 0;
        const bool ok = copy && EVP_MD_CTX_copy_ex(copy, state_->md) == 1 && EVP_DigestFinal_ex(copy, out.data(), &size) == 1;
        EVP_MD_CTX_free(copy);
        if (!ok || size != out.size()) crypto_failure("SHA-256 final");
    } else {
        EVP_MAC_CTX* copy = EVP_MAC_CTX_dup(state_->mac);
        std::size_t size = 0;
        const bool ok = copy && EVP_MAC_final(copy, out.data(), &size, out.size()) == 1;
        EVP_MAC_CTX_free(copy);
        if (!ok || size != out.size()) crypto_failure("HMAC-SHA-256 final");
    }
    return out;
}

std::string Hasher::hex() const { return blockcheck::hex(digest()); }

Digest content_hash(std::string_view bytes) { return Hasher().raw(bytes).digest(); }

Digest hash_field(const Digest& hash, std::string_view field) {
    return Hasher().raw({reinterpret_cast<const char*>(hash.data()), hash.size()}).field(field).digest();
}

std::string hex(const Digest& digest) {
    std::string out;
    out.reserve(2 * digest.size());
    for (const std::uint8_t byte : digest) out += fmt::format("{:02x}", byte);
    return out;
}

std::uint64_t leading_u64(const Digest& digest) {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < 8; ++i) value = value << 8 | digest[i];
    return value;
}

bool same_bytes(std::string_view a, std::string_view b) {
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string random_bytes(std::size_t count) {
    std::string bytes(count, '\0');
    if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(count)) != 1) crypto_failure("RAND_bytes");
    return bytes;
}

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
