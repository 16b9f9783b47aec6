#include "checker/block/npy_header.hpp"

#include "base/errors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

namespace blockcheck {
namespace {

constexpr std::string_view npy_magic("\x93NUMPY", 6);
constexpr std::size_t max_shape_digits = 19;  // below 10^19 < 2^64: an extent parses without overflow
constexpr std::size_t max_header_length = 10'000;  // numpy's own reader refuses longer headers (max_header_size)

// The header length: 2 bytes little-endian for version 1.0, 4 for 2.0 and 3.0.
std::size_t header_length(std::string_view bytes, std::size_t length_bytes) {
    std::size_t length = 0;
    for (std::size_t i = 0; i < length_bytes; ++i) length |= std::size_t(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
    return length;
}

// The header's text, after checking the magic, the version and that its length fits the file.
std::string_view header_text(std::string_view bytes, const std::string& name, std::size_t& data_offset) {
    if (bytes.size() < 10 || !bytes.starts_with(npy_magic)) throw InputFileError(name + ": not a .npy file");
    const int major = static_cast<unsigned char>(bytes[6]), minor = static_cast<unsigned char>(bytes[7]);
    if (!((major == 1 || major == 2 || major == 3) && minor == 0))
        throw InputFileError(fmt::format("{}: .npy version {}.{} is not supported", name, major, minor));
    const std::size_t length_bytes = major == 1 ? 2 : 4;
    if (bytes.size() < 8 + length_bytes) throw InputFileError(name + ": the .npy header is cut short");
    const std::size_t length = header_length(bytes, length_bytes), begin = 8 + length_bytes;
    if (length > bytes.size() - begin) throw InputFileError(name + ": the .npy header is longer than the file");
    if (length > max_header_length)
        throw InputFileError(fmt::format("{}: the .npy header is {} bytes long, beyond numpy's limit of {}", name, length,
                                         max_header_length));
    data_offset = begin + length;
    return bytes.substr(begin, length);
}

// The shape tuple's text "3, 4" (spaces removed: "3,4") as extents.
std::vector<std::size_t> shape_of(const std::string& tuple, const std::string& name) {
    std::vector<std::size_t> shape;
    if (tuple.empty()) return shape;  // () : a scalar
    for (std::size_t at = 0;;) {
        std::size_t comma = std::min(tuple.find(',', at), tuple.size());
        const std::string extent = tuple.substr(at, comma - at);
        if (extent.empty() || extent.size() > max_shape_digits ||
            extent.find_first_not_of("0123456789") != std::string::npos)
            throw InputFileError(name + ": shape: '" + extent + "' is not an extent");
        shape.push_back(std::stoull(extent));
        if (comma == tuple.size()) return shape;
        at = comma + 1;
    }
}

}  // namespace

NpyHeader read_npy_header(std::string_view bytes, const std::string& name) {
    NpyHeader h;
    std::string text(header_text(bytes, name, h.data_offset));
    std::erase(text, ' ');
    // numpy writes its three keys in this order; a trailing comma after the shape's last
    // extent and after the last entry is optional
    static const std::regex form(R"(\{'descr':'([^']*)','fortran_order':([A-Za-z]*),'shape':\(([^)]*)\),?\}\n)");
    std::smatch parts;
    if (!std::regex_match(text, parts, form))
        throw InputFileError(name + ": the .npy header is not in numpy's form {'descr': ..., 'fortran_order': ..., "
                                    "'shape': (...), }");
    h.descr = parts[1];
    static const std::regex descr_form(R"([<>|=][a-zA-Z][0-9]+)");
    if (!std::regex_match(h.descr, descr_form))
        throw InputFileError(name + ": descr: '" + h.descr + "' is not a numpy type such as '<f8'");
    if (parts[2] != "True" && parts[2] != "False")
        throw InputFileError(name + ": fortran_order: expected True or False, found '" + parts[2].str() + "'");
    h.fortran_order = parts[2] == "True";
    std::string tuple = parts[3];
    if (tuple.ends_with(',')) tuple.pop_back();
    h.shape = shape_of(tuple, name);
    return h;
}

std::vector<std::size_t> fortran_to_row_major(const std::vector<std::size_t>& shape) {
    std::size_t n = 1;
    for (std::size_t extent : shape) n *= extent;
    std::vector<std::size_t> position(n);
    std::vector<std::size_t> index(shape.size(), 0);  // the element's multi-index, first axis fastest
    for (std::size_t k = 0; k < n; ++k) {
        std::size_t row_major = 0;
        for (std::size_t d = 0; d < shape.size(); ++d) row_major = row_major * shape[d] + index[d];
        position[k] = row_major;
        for (std::size_t d = 0; d < shape.size() && ++index[d] == shape[d]; ++d) index[d] = 0;
    }
    return position;
}

}  // namespace blockcheck
