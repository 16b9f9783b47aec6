#include "checker/common/json_fields.hpp"

#include <cstdint>

namespace blockcheck {

using Json = nlohmann::ordered_json;

std::string json_shown(const Json& value) {
    const std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return text.size() <= 40 ? text : std::string(value.type_name());
}

std::string field_path(const std::string& where, const std::string& key) {
    return where.ends_with(':') ? where + " " + key : where + "." + key;
}

const Json& required_field(const Json& object, const std::string& key, const std::string& where) {
    if (!object.is_object()) throw InputFileError(where + ": expected an object, got " + json_shown(object));
    auto it = object.find(key);
    if (it == object.end()) throw InputFileError(field_path(where, key) + ": missing field");
    return *it;
}

std::string string_of(const Json& value, const std::string& where) {
    if (!value.is_string() || value.get_ref<const std::string&>().empty())
        throw InputFileError(where + ": expected a non-empty string, got " + json_shown(value));
    return value.get<std::string>();
}

std::string string_field(const Json& object, const std::string& key, const std::string& where) {
    return string_of(required_field(object, key, where), field_path(where, key));
}

std::string optional_string_field(const Json& object, const std::string& key, const std::string& where) {
    return object.contains(key) ? string_field(object, key, where) : std::string();
}

Text text_of(const Json& value, const std::string& where) {
    if (!value.is_object()) throw InputFileError(where + ": expected {\"en\": ..., \"zh\": ...}, got " + json_shown(value));
    reject_unknown_fields(value, {"en", "zh"}, where);
    return {string_field(value, "en", where), string_field(value, "zh", where)};
}

Text text_field(const Json& object, const std::string& key, const std::string& where) {
    return text_of(required_field(object, key, where), field_path(where, key));
}

void reject_unknown_fields(const Json& object, const std::set<std::string>& known, const std::string& where) {
    if (!object.is_object()) throw InputFileError(where + ": expected an object, got " + json_shown(object));
    for (auto& [key, value] : object.items())
        if (!known.count(key)) throw InputFileError(field_path(where, key) + ": unknown field");
}

long long whole_number(const Json& value, const std::string& where, long long lo, long long hi) {
    if (!value.is_number_integer()) throw InputFileError(where + ": expected a whole number, got " + json_shown(value));
    const bool too_big = value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(hi);
    const long long n = too_big ? hi + 1 : value.get<long long>();
    if (n < lo || n > hi)
        throw InputFileError(where + ": " + value.dump() + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return n;
}

}  // namespace blockcheck
