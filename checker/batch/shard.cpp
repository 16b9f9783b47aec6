#include "checker/batch/shard.hpp"

#include "base/errors.hpp"
#include "checker/common/hashing.hpp"

namespace blockcheck {

Shard parse_shard(std::string_view text) {
    const auto slash = text.find('/');
    auto number = [&](std::string_view part) -> unsigned {
        if (part.empty() || part.size() > 6 || part.find_first_not_of("0123456789") != std::string_view::npos)
            throw InputFileError("--shard " + std::string(text) + ": expected K/N with 1 <= K <= N, e.g. 2/5");
        return static_cast<unsigned>(std::stoul(std::string(part)));
    };
    if (slash == std::string_view::npos)
        throw InputFileError("--shard " + std::string(text) + ": expected K/N with 1 <= K <= N, e.g. 2/5");
    Shard shard{number(text.substr(0, slash)), number(text.substr(slash + 1))};
    if (shard.index < 1 || shard.index > shard.count)
        throw InputFileError("--shard " + std::string(text) + ": expected K/N with 1 <= K <= N, e.g. 2/5");
    return shard;
}

bool in_shard(std::string_view student, const Shard& shard) {
    return leading_u64(content_hash(student)) % shard.count == shard.index - 1;
}

}  // namespace blockcheck
