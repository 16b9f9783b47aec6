// The normal form of a program: a small C++ tokenizer (comments and whitespace dropped, string
// and character literals whole, raw strings included), identifiers renamed in order of first use.
#include "checker/insight/insight_code.hpp"

#include "checker/common/hashing.hpp"

#include <cctype>
#include <map>
#include <set>

namespace blockcheck {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80; }
bool ident_char(char c) { return ident_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

// Keywords and the standard library's common unqualified names: kept as written.
const std::set<std::string, std::less<>>& kept_names() {
    static const std::set<std::string, std::less<>> names = {
        // keywords
        "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "char8_t", "char16_t",
        "char32_t", "class", "co_await", "co_return", "co_yield", "concept", "const", "consteval", "constexpr",
        "constinit", "const_cast", "continue", "decltype", "default", "delete", "do", "double", "dynamic_cast", "else",
        "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long",
        "mutable", "namespace", "new", "noexcept", "not", "nullptr", "operator", "or", "private", "protected", "public",
        "register", "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static", "static_assert",
        "static_cast", "struct", "switch", "template", "this", "throw", "true", "try", "typedef", "typeid", "typename",
        "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "final", "override",
        // the standard library, as students call it after `using namespace std`
        "std", "main", "printf", "puts", "putchar", "scanf", "cout", "cin", "cerr", "endl", "string", "vector", "array",
        "map", "pair", "size_t", "int64_t", "uint64_t", "int32_t", "uint32_t", "sqrt", "exp", "log", "log2", "pow", "sin",
        "cos", "tan", "atan", "atan2", "fabs", "abs", "max", "min", "round", "floor", "ceil", "fma", "tanh", "hypot",
        "setprecision", "fixed", "numeric_limits", "accumulate", "inner_product", "sort", "swap", "size", "push_back",
        "emplace_back", "begin", "end", "resize", "assign", "data", "at", "front", "back", "empty", "to_string", "stod",
        "stoi", "getline", "M_PI", "maybe_unused", "nodiscard"};
    return names;
}

std::size_t skip_literal(std::string_view s, std::size_t i) {  // s[i] is ' or "; returns the index after it
    const char quote = s[i];
    std::size_t j = i + 1;
    while (j < s.size() && s[j] != quote && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
    return std::min(j + 1, s.size());
}

std::size_t skip_raw_string(std::string_view s, std::size_t i) {  // s[i] is the '"' after R
    const std::size_t open = s.find('(', i);
    if (open == std::string_view::npos) return s.size();
    const std::string close = ")" + std::string(s.substr(i + 1, open - i - 1)) + "\"";
    const std::size_t end = s.find(close, open);
    return end == std::string_view::npos ? s.size() : end + close.size();
}

std::size_t skip_number(std::string_view s, std::size_t i) {
    std::size_t j = i;
    while (j < s.size()) {
        const char c = s[j];
        if (ident_char(c) || c == '.' || c == '\'') ++j;
        else if ((c == '+' || c == '-') && j > i && std::string_view("eEpP").find(s[j - 1]) != std::string_view::npos) ++j;
        else break;
    }
    return j;
}

}  // namespace

std::vector<std::string> normalised_tokens(std::string_view s) {
    std::vector<std::string> tokens;
    std::map<std::string, std::string, std::less<>> renamed;
    bool directive = false, line_start = true;
    for (std::size_t i = 0; i < s.size();) {
        const char c = s[i];
        if (c == '\n') {
            directive = false, line_start = true, ++i;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        if (s.compare(i, 2, "//") == 0) {
            i = std::min(s.find('\n', i), s.size());
            continue;
        }
        if (s.compare(i, 2, "/*") == 0) {
            const std::size_t end = s.find("*/", i + 2);
            i = end == std::string_view::npos ? s.size() : end + 2;
            continue;
        }
        if (c == '#' && line_start) directive = true;
        line_start = false;
        std::size_t j = i + 1;
        bool identifier = false;
        if (c == '"' || c == '\'') j = skip_literal(s, i);
        else if (c == 'R' && i + 1 < s.size() && s[i + 1] == '"') j = skip_raw_string(s, i + 1);
        else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))))
            j = skip_number(s, i);
        else if (ident_start(c)) {
            while (j < s.size() && ident_char(s[j])) ++j;
            identifier = true;
        }
        std::string token(s.substr(i, j - i));
        const bool qualified = !tokens.empty() && tokens.back() == "::";
        if (identifier && !directive && !qualified && !kept_names().contains(token)) {
            auto [it, added] = renamed.try_emplace(token, "$" + std::to_string(renamed.size() + 1));
            token = it->second;
        }
        // "::" as one token, so that a qualified name is recognised
        if (token == ":" && !tokens.empty() && tokens.back() == ":") tokens.back() = "::";
        else tokens.push_back(std::move(token));
        i = j;
    }
    return tokens;
}

std::string code_shape(std::string_view source) {
    const std::vector<std::string> tokens = normalised_tokens(source);
    std::string joined;
    for (const std::string& t : tokens) joined.append(t).push_back('\x1f');
    return std::to_string(tokens.size()) + ":" + hex(content_hash(joined)).substr(0, 32);
}

std::size_t shape_tokens(std::string_view shape) {
    std::size_t n = 0;
    for (char c : shape) {
        if (c == ':') return n;
        if (!std::isdigit(static_cast<unsigned char>(c))) return 0;
        n = n * 10 + static_cast<std::size_t>(c - '0');
    }
    return 0;
}

}  // namespace blockcheck
