// The text scans of compile_preamble.hpp: what a program lets the fast compile precompile.
#include "checker/compile/compile_preamble.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <regex>

namespace blockcheck {

namespace {

// The lines of `source`, without their '\n' (a trailing '\r' stays: the patterns allow it).
std::vector<std::string_view> lines_of(std::string_view source) {
    std::vector<std::string_view> lines;
    for (std::size_t at = 0; at < source.size();) {
        const std::size_t end = std::min(source.find('\n', at), source.size());
        lines.push_back(source.substr(at, end - at));
        at = end + 1;
    }
    return lines;
}

// A backslash that ends a line (spaces may follow it, as g++ allows) joins it to the next.
bool ends_in_splice(std::string_view line) {
    const auto last = line.find_last_not_of(" \t\r\f\v");
    return last != std::string_view::npos && line[last] == '\\';
}

bool has_splice(std::string_view source) {
    for (std::string_view line : lines_of(source))
        if (ends_in_splice(line)) return true;
    return false;
}

std::string_view without_bom(std::string_view source) {
    return source.starts_with("\xEF\xBB\xBF") ? source.substr(3) : source;
}

bool reserved(std::string_view word) {
    return word.size() >= 2 && word[0] == '_' && (word[1] == '_' || std::isupper(static_cast<unsigned char>(word[1])));
}

bool word_byte(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// libstdc++'s std::regex recurses once a character: a line of tens of thousands of characters
// overflows the grader's stack (a red team's 30 KB comment line crashed a class run). No line
// longer than this is given to a regex; such a line is never a preamble or a guard line.
constexpr std::size_t max_scanned_line = 2048;
bool too_long(std::string_view line) { return line.size() > max_scanned_line; }

}  // namespace

std::string Preamble::text() const {
    std::string out;
    for (const std::string& line : lines) out += line + "\n";
    return out;
}

bool include_guarded(std::string_view header) {
    static const std::regex opening(R"(^\s*#\s*ifndef\s+(\w+)\s*$)"), define(R"(^\s*#\s*define\s+(\w+)\b.*$)");
    static const std::regex conditional(R"(^\s*#\s*if(n?def)?\b.*$)"), endif(R"(^\s*#\s*endif\b.*$)");
    static const std::regex blank_or_comment(R"(^\s*(//.*)?$)");
    if (has_splice(header)) return false;
    std::string guard;
    int depth = 0;
    bool closed = false, defined = false;
    for (std::string_view view : lines_of(without_bom(header))) {
        if (too_long(view)) return false;
        const std::string line(view);
        std::smatch match;
        if (std::regex_match(line, blank_or_comment)) continue;
        if (closed) return false;  // something after the guard's #endif
        if (guard.empty()) {       // the first line that counts opens the guard
            if (!std::regex_match(line, match, opening)) return false;
            guard = match[1];
            depth = 1;
        } else if (!defined) {  // and the next defines its macro
            if (!std::regex_match(line, match, define) || match[1] != guard) return false;
            defined = true;
        } else if (std::regex_match(line, conditional)) {
            ++depth;
        } else if (std::regex_match(line, endif)) {
            closed = --depth == 0;
        }
    }
    return closed;
}

Preamble leading_includes(std::string_view source, const std::vector<std::string>& headers,
                          const std::vector<std::string>& unguarded) {
    static const std::regex include_line(R"re(^\s*#\s*include\s*(<([^>/]+)>|"([^"/]+)")\s*(//.*)?$)re");
    static const std::regex blank_or_comment(R"(^\s*(//.*)?$)");
    Preamble preamble;
    int number = 0;
    for (std::string_view view : lines_of(without_bom(source))) {
        ++number;
        if (ends_in_splice(view) || too_long(view)) break;
        const std::string line(view);
        std::smatch match;
        if (std::regex_match(line, match, include_line)) {
            const bool standard = match[2].matched;
            const std::string name = standard ? match[2].str() : match[3].str();
            if (std::find(unguarded.begin(), unguarded.end(), name) != unguarded.end()) break;
            if (!standard && std::find(headers.begin(), headers.end(), name) == headers.end()) break;
            preamble.lines.push_back(standard ? "#include <" + match[2].str() + ">" : "#include \"" + match[3].str() + "\"");
            preamble.source_lines.push_back(number);
        } else if (!std::regex_match(line, blank_or_comment)) {
            break;
        }
    }
    return preamble;
}

namespace {

// `source` with every comment replaced by a space, as the compiler's third phase does; string
// and character literals kept whole (a `//` in one is no comment). Nothing when the text has a
// raw string literal, whose quotes this reading cannot follow.
std::optional<std::string> without_comments(std::string_view source) {
    if (source.find("R\"") != std::string_view::npos) return std::nullopt;
    std::string out;
    for (std::size_t at = 0; at < source.size();) {
        const char c = source[at];
        if (c == '/' && at + 1 < source.size() && (source[at + 1] == '/' || source[at + 1] == '*')) {
            const bool line = source[at + 1] == '/';
            const std::size_t end = line ? source.find('\n', at) : source.find("*/", at + 2);
            out += line ? "\n" : " ";
            at = end == std::string_view::npos ? source.size() : end + (line ? 1 : 2);
        } else if (c == '"' || c == '\'') {
            std::size_t end = at + 1;
            while (end < source.size() && source[end] != c && source[end] != '\n') end += source[end] == '\\' ? 2 : 1;
            end = std::min(end + 1, source.size());
            out.append(source.substr(at, end - at));
            at = end;
        } else {
            out += c;
            ++at;
        }
    }
    return out;
}

// The identifiers and `::`, `;` and `=` of a comment-free text, in order (other punctuation
// dropped, literals' words kept: more words only err towards the inline header).
std::vector<std::string_view> words_of(std::string_view text) {
    std::vector<std::string_view> words;
    for (std::size_t at = 0; at < text.size();) {
        if (word_byte(text[at])) {
            std::size_t end = at;
            while (end < text.size() && word_byte(text[end])) ++end;
            words.push_back(text.substr(at, end - at));
            at = end;
        } else if (text.substr(at, 2) == "::") {
            words.push_back(text.substr(at, 2));
            at += 2;
        } else {
            if (text[at] == ';' || text[at] == '=') words.push_back(text.substr(at, 1));
            ++at;
        }
    }
    return words;
}

// Whether the program names `bc` anywhere but in `using namespace bc;` (a definition of the
// header's own, a reopened namespace, an alias), or defines a symbol by its assembler name.
bool names_bc(std::string_view text) {
    const std::vector<std::string_view> words = words_of(text);
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string_view w = words[i];
        if (w == "asm" || w == "__asm" || w == "__asm__" || w == "alias" || w == "__alias__") return true;
        if (w.find("_ZN2bc") != std::string_view::npos) return true;
        if (w != "bc") continue;
        const bool directive = i >= 2 && words[i - 1] == "namespace" && words[i - 2] == "using" && i + 1 < words.size() &&
                               words[i + 1] == ";";
        if (!directive) return true;
    }
    return false;
}

}  // namespace

bool prebuilt_header_safe(std::string_view source) {
    static const std::regex include_line(R"(^\s*#\s*include\s*(<[^>]*>|"blockcheck\.hpp")\s*(//.*)?$)");
    if (source.find("%:") != std::string_view::npos || has_splice(source)) return false;
    for (std::string_view view : lines_of(source))
        if (view.find('#') != std::string_view::npos && (too_long(view) || !std::regex_match(std::string(view), include_line)))
            return false;
    const auto code = without_comments(source);
    return code && !names_bc(*code);
}

const std::vector<std::string_view>& special_function_names() {
    // C++17 [sf.cmath], then libstdc++'s four extensions in __gnu_cxx (reachable by ADL).
    static const std::vector<std::string_view> names{
        "assoc_laguerre", "assoc_legendre", "beta",          "comp_ellint_1", "comp_ellint_2", "comp_ellint_3",
        "cyl_bessel_i",   "cyl_bessel_j",   "cyl_bessel_k",  "cyl_neumann",   "ellint_1",      "ellint_2",
        "ellint_3",       "expint",         "hermite",       "laguerre",      "legendre",      "riemann_zeta",
        "sph_bessel",     "sph_legendre",   "sph_neumann",   "airy_ai",       "airy_bi",       "conf_hyperg",
        "hyperg"};
    return names;
}

bool names_special_function(std::string_view text, bool or_reserved) {
    const auto& names = special_function_names();
    auto listed = [&](std::string_view word) { return std::find(names.begin(), names.end(), word) != names.end(); };
    for (std::size_t at = 0; at < text.size();) {
        if (!word_byte(text[at])) {
            ++at;
            continue;
        }
        std::size_t end = at;
        while (end < text.size() && word_byte(text[end])) ++end;
        const std::string_view word = text.substr(at, end - at);
        at = end;
        if (std::isdigit(static_cast<unsigned char>(word[0]))) continue;  // a number, not a name
        if (or_reserved && reserved(word)) return true;
        if (listed(word)) return true;
        if (word.size() > 1 && (word.back() == 'f' || word.back() == 'l') && listed(word.substr(0, word.size() - 1))) return true;
    }
    return false;
}

bool special_functions_unused(std::string_view source) {
    static const std::regex folder_include(R"(#\s*include\s*<[^>]*/)");
    if (!prebuilt_header_safe(source)) return false;
    if (source.find("\\u") != std::string_view::npos || source.find("\\U") != std::string_view::npos) return false;
    if (std::regex_search(std::string(source), folder_include)) return false;
    return !names_special_function(source, true);
}

}  // namespace blockcheck
