#include "checker/outputs/student_id.hpp"

#include "checker/common/hashing.hpp"
#include "checker/common/utf8.hpp"
#include "checker/exercise/protocol.hpp"
#include "checker/compile/compile.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace blockcheck {
namespace {

constexpr std::size_t cut_stem_bytes = 80;

// The bytes of the character at text[i] as they appear in a stem, and how many bytes it took.
std::pair<std::string, std::size_t> stem_piece(std::string_view text, std::size_t i) {
    const std::size_t n = utf8_length(text, i);
    const auto b = static_cast<unsigned char>(text[i]);
    const bool plain = n > 1 || (n == 1 && b >= 0x20 && b != 0x7F && b != '%' && b != '~' && b != '/' && !(i == 0 && b == '.'));
    if (plain) return {std::string(text.substr(i, n)), n};
    return {fmt::format("%{:02X}", b), 1};
}

}  // namespace

std::string student_file_stem(std::string_view id) {
    std::string stem;
    std::size_t cut = std::string::npos;  // stem length at the last character boundary within cut_stem_bytes
    for (std::size_t i = 0; i < id.size();) {
        auto [piece, used] = stem_piece(id, i);
        if (stem.size() + piece.size() > cut_stem_bytes && cut == std::string::npos) cut = stem.size();
        stem += piece;
        i += used;
    }
    if (stem.empty()) return "%";  // an empty id cannot be a folder name, but must still be a file name
    if (stem.size() <= max_student_stem_bytes) return stem;
    return stem.substr(0, cut) + fmt::format("~{:016x}", leading_u64(content_hash(id)));
}

std::string printable_id(std::string_view id, std::size_t max_bytes) { return printable(id, max_bytes); }

std::string printable_text(std::string_view text) {
    std::string out;
    for (std::size_t start = 0;;) {
        const std::size_t end = text.find('\n', start);
        out += printable(text.substr(start, end - start), std::string_view::npos);
        if (end == std::string_view::npos) return out;
        out += '\n';
        start = end + 1;
    }
}

void put_student_id(nlohmann::ordered_json& json, std::string_view id) {
    json["student"] = std::string(id);
    if (is_utf8(id)) return;
    std::string hex;
    for (unsigned char b : id) hex += fmt::format("{:02x}", b);
    json["student_hex"] = hex;
}

std::string student_id_from(const nlohmann::json& json) {
    auto it = json.find("student_hex");
    if (it == json.end()) return json.at("student").get<std::string>();
    const std::string hex = it->get<std::string>();
    if (hex.size() % 2 != 0 || hex.find_first_not_of("0123456789abcdef") != std::string::npos)
        throw std::runtime_error("student_hex: expected pairs of lowercase hex digits");
    std::string id;
    for (std::size_t i = 0; i < hex.size(); i += 2) id += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    return id;
}

}  // namespace blockcheck
