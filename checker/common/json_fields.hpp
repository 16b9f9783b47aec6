// Readers of one field of a JSON object, shared by every data file's loader. `where` names the
// object: "claims.json:" for a file's top level, "claims.json: claims[2]" below it; every message
// reads "FILE: FIELD: expected ..., got ...".
#pragma once

#include "base/errors.hpp"
#include "checker/common/i18n.hpp"

#include <nlohmann/json.hpp>

#include <set>
#include <string>

namespace blockcheck {

// The name of field `key` of the object at `where`: "f.json:" + "id" -> "f.json: id",
// "f.json: claims[2]" + "id" -> "f.json: claims[2].id".
std::string field_path(const std::string& where, const std::string& key);

// The field `key` of `object`; "WHERE.KEY: missing field" when it is absent.
const nlohmann::ordered_json& required_field(const nlohmann::ordered_json& object, const std::string& key,
                                             const std::string& where);

// A non-empty string; "WHERE: expected a non-empty string, got 3".
std::string string_of(const nlohmann::ordered_json& value, const std::string& where);

// The string field `key` (required), or "" when `optional_string_field` finds it absent.
std::string string_field(const nlohmann::ordered_json& object, const std::string& key, const std::string& where);
std::string optional_string_field(const nlohmann::ordered_json& object, const std::string& key, const std::string& where);

// {"en": ..., "zh": ...}, both non-empty and nothing else.
Text text_of(const nlohmann::ordered_json& value, const std::string& where);
Text text_field(const nlohmann::ordered_json& object, const std::string& key, const std::string& where);

// An object holding only fields from `known`; "WHERE.KEY: unknown field" otherwise.
void reject_unknown_fields(const nlohmann::ordered_json& object, const std::set<std::string>& known,
                           const std::string& where);

// What a value is, for "got ...": its JSON text when short, else its type.
std::string json_shown(const nlohmann::ordered_json& value);

// A whole number in [lo, hi]; "WHERE: expected a whole number, got 1.5" (parse_json_exact keeps a
// fraction as its decimal text) or "WHERE: 0 is outside [1, 1000]".
long long whole_number(const nlohmann::ordered_json& value, const std::string& where, long long lo, long long hi);

}  // namespace blockcheck
