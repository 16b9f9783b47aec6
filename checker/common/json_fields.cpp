#include "checker/common/json_fields.hpp"

#include "checker/common/json_exact.hpp"

#include <cstdint>

namespace blockcheck {

long long whole_number(const nlohmann::ordered_json& value, const std::string& where, long long lo, long long hi) {
    if (!value.is_number_integer()) throw InputFileError(where + ": expected a whole number, not " + value.dump());
    const bool too_big = value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(hi);
    const long long n = too_big ? hi + 1 : value.get<long long>();
    if (n < lo || n > hi)
        throw InputFileError(where + ": " + value.dump() + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return n;
}

}  // namespace blockcheck
