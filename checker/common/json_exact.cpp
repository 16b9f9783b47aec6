#include "checker/common/json_exact.hpp"

#include "base/decimal.hpp"
#include "checker/common/files.hpp"

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

// Forwards every SAX event to the DOM builder, but hands floats over as their source text.
class ExactSax {
public:
    explicit ExactSax(Json& root) : dom_(root, false) {}

    bool null() { return dom_.null(); }
    bool boolean(bool v) { return dom_.boolean(v); }
    bool number_integer(Json::number_integer_t v) { return dom_.number_integer(v); }
    bool number_unsigned(Json::number_unsigned_t v) { return dom_.number_unsigned(v); }
    bool number_float(Json::number_float_t, const Json::string_t& text) {
        Json::string_t copy = text;
        return dom_.string(copy);
    }
    bool string(Json::string_t& v) { return dom_.string(v); }
    bool binary(Json::binary_t& v) { return dom_.binary(v); }
    bool start_object(std::size_t n) { return dom_.start_object(n); }
    bool key(Json::string_t& k) { return dom_.key(k); }
    bool end_object() { return dom_.end_object(); }
    bool start_array(std::size_t n) { return dom_.start_array(n); }
    bool end_array() { return dom_.end_array(); }
    bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& e) {
        error_ = e.what();
        (void)position;
        (void)token;
        return false;
    }
    const std::string& error() const { return error_; }

private:
    nlohmann::detail::json_sax_dom_parser<Json> dom_;
    std::string error_;
};

// nlohmann's messages start with "[json.exception.parse_error.101] "; keep the readable part.
std::string readable(const std::string& message) {
    auto pos = message.find("] ");
    return pos == std::string::npos ? message : message.substr(pos + 2);
}

}  // namespace

Json parse_json_exact(const std::string& text, const std::string& source) {
    Json root;
    ExactSax sax(root);
    if (!Json::sax_parse(text, &sax) || root.is_discarded())
        throw InputFileError(source + ": " + readable(sax.error().empty() ? "not valid JSON" : sax.error()));
    return root;
}

Json read_json_exact(const std::filesystem::path& file) {
    return parse_json_exact(read_file(file), file.string());
}

std::string decimal_text(const Json& value, const std::string& where) {
    std::string text;
    if (value.is_string()) text = value.get<std::string>();
    else if (value.is_number_integer()) text = value.dump();
    else throw InputFileError(where + ": expected a number, found " + std::string(value.type_name()));
    if (!is_decimal(text)) throw InputFileError(where + ": '" + text + "' is not a decimal number");
    return text;
}

}  // namespace blockcheck
