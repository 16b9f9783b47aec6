// JSON reading that keeps every number's decimal text, so "0.1" and 0.1 both mean one tenth
// at the working precision rather than the double nearest it; and the one reader of every JSON a
// user or a download hands in, with a depth and a size limit (issue 40: a config.json nested
// 300,000 deep crashed the JSON library, which recurses on copy and print).
#pragma once

#include "base/errors.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace blockcheck {

// The limits of every JSON text read here (docs/checkpoints.md): nested at most 64 arrays and
// objects deep (the project's own files reach 5), at most max_json_file_bytes (64 MiB) long. Beyond
// either, an InputFileError "SOURCE: nested deeper than 64 ..." or "SOURCE: N bytes is beyond ...".
constexpr std::size_t max_json_depth = 64;

// Parses JSON text; floating-point numbers come back as strings holding their exact text.
// `source` names the text in error messages.
nlohmann::ordered_json parse_json_exact(const std::string& text, const std::string& source);

// Reads and parses a file the same way (read_user_file: a regular file only, at most 64 MiB); a
// missing file or bad JSON is an InputFileError.
nlohmann::ordered_json read_json_exact(const std::filesystem::path& file);

// JSON text parsed as nlohmann parses it (numbers as numbers), within the same limits; bad JSON or
// a limit passed is an InputFileError naming `source`.
nlohmann::json parse_json(const std::string& text, const std::string& source);
nlohmann::ordered_json parse_ordered_json(const std::string& text, const std::string& source);

// The decimal text of a JSON number or numeric string at `where`; throws naming `where`.
std::string decimal_text(const nlohmann::ordered_json& value, const std::string& where);

}  // namespace blockcheck
