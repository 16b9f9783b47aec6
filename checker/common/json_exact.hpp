// JSON reading that keeps every number's decimal text, so "0.1" and 0.1 both mean one tenth
// at the working precision rather than the double nearest it.
#pragma once

#include "base/errors.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace blockcheck {

// Parses JSON text; floating-point numbers come back as strings holding their exact text.
// `source` names the text in error messages.
nlohmann::ordered_json parse_json_exact(const std::string& text, const std::string& source);

// Reads and parses a file the same way; a missing file or bad JSON is an InputFileError.
nlohmann::ordered_json read_json_exact(const std::filesystem::path& file);

// The decimal text of a JSON number or numeric string at `where`; throws naming `where`.
std::string decimal_text(const nlohmann::ordered_json& value, const std::string& where);

}  // namespace blockcheck
