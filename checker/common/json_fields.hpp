// Checked fields of definition files read with parse_json_exact.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace blockcheck {

// A JSON whole number in [lo, hi]; anything else (a fraction, which parse_json_exact keeps as
// its decimal text, included) is an InputFileError naming `where`.
long long whole_number(const nlohmann::ordered_json& value, const std::string& where, long long lo, long long hi);

}  // namespace blockcheck
