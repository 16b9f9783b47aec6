#include "checker/common/json_exact.hpp"

#include "base/decimal.hpp"
#include "checker/common/files.hpp"

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

// Forwards every SAX event to the DOM builder, refusing a nesting deeper than max_json_depth;
// with `exact`, floats are handed over as their source text.
template <class J, bool exact>
class LimitedSax {
public:
    explicit LimitedSax(J& root) : dom_(root, false) {}

    bool null() { return dom_.null(); }
    bool boolean(bool v) { return dom_.boolean(v); }
    bool number_integer(typename J::number_integer_t v) { return dom_.number_integer(v); }
    bool number_unsigned(typename J::number_unsigned_t v) { return dom_.number_unsigned(v); }
    bool number_float(typename J::number_float_t v, const typename J::string_t& text) {
        if constexpr (!exact) return dom_.number_float(v, text);
        typename J::string_t copy = text;
        return dom_.string(copy);
    }
    bool string(typename J::string_t& v) { return dom_.string(v); }
    bool binary(typename J::binary_t& v) { return dom_.binary(v); }
    bool start_object(std::size_t n) { return deeper() && dom_.start_object(n); }
    bool key(typename J::string_t& k) { return dom_.key(k); }
    bool end_object() { return --depth_, dom_.end_object(); }
    bool start_array(std::size_t n) { return deeper() && dom_.start_array(n); }
    bool end_array() { return --depth_, dom_.end_array(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
        error_ = e.what();
        return false;
    }
    const std::string& error() const { return error_; }

private:
    bool deeper() {
        if (++depth_ <= max_json_depth) return true;
        error_ = "nested deeper than " + std::to_string(max_json_depth) + " arrays and objects (the limit of JSON read here)";
        return false;
    }
    nlohmann::detail::json_sax_dom_parser<J> dom_;
    std::size_t depth_ = 0;
    std::string error_;
};

// nlohmann's messages start with "[json.exception.parse_error.101] "; keep the readable part.
std::string readable(const std::string& message) {
    auto pos = message.find("] ");
    return pos == std::string::npos ? message : message.substr(pos + 2);
}

// `text` parsed within the limits; an InputFileError naming `source` otherwise.
template <class J, bool exact>
J parse_limited(const std::string& text, const std::string& source) {
    if (text.size() > max_json_file_bytes)
        throw InputFileError(source + ": " + std::to_string(text.size()) + " bytes of JSON is beyond the limit of " +
                             std::to_string(max_json_file_bytes));
    J root;
    LimitedSax<J, exact> sax(root);
    if (!J::sax_parse(text, &sax) || root.is_discarded())
        throw InputFileError(source + ": " + readable(sax.error().empty() ? "not valid JSON" : sax.error()));
    return root;
}

}  // namespace

Json parse_json_exact(const std::string& text, const std::string& source) {
    return parse_limited<Json, true>(text, source);
}

Json read_json_exact(const std::filesystem::path& file) {
    return parse_json_exact(read_user_file(file, max_json_file_bytes), file.string());
}

nlohmann::json parse_json(const std::string& text, const std::string& source) {
    return parse_limited<nlohmann::json, false>(text, source);
}

Json parse_ordered_json(const std::string& text, const std::string& source) {
    return parse_limited<Json, false>(text, source);
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
