#include "checker/block/tensor_files.hpp"

#include "base/float_formats.hpp"

#include "checker/block/npy_header.hpp"
#include "checker/common/files.hpp"
#include "checker/common/json_exact.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <xtensor/xadapt.hpp>
#include <xtensor/xnpy.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t max_header_bytes = 100'000'000;  // safetensors' own limit

std::size_t element_bytes(DType dtype) {
    return dtype == DType::float64 ? 8 : dtype == DType::float32 ? 4 : 2;
}

// A tensor file's bytes: a regular file the user named, refused unread beyond max_tensor_file_bytes.
std::string read_bytes(const std::filesystem::path& file) { return read_user_file(file, max_tensor_file_bytes); }

// Refuses more than max_tensor_values values converted from one file.
void check_value_count(std::size_t values, const std::string& name) {
    if (values > max_tensor_values)
        throw InputFileError(fmt::format("{}: {} values to read, beyond the limit of {} (2^28) from one file", name,
                                         values, max_tensor_values));
}

// Refuses two tensors sharing bytes (safetensors gives each its own; a header listing thousands
// of tensors over the same bytes would multiply what is read).
void check_no_overlap(std::vector<TensorEntry> entries, const std::string& name) {
    std::sort(entries.begin(), entries.end(), [](const TensorEntry& a, const TensorEntry& b) { return a.begin < b.begin; });
    const TensorEntry* last = nullptr;  // the entry reaching furthest so far
    for (const TensorEntry& e : entries) {
        if (e.begin == e.end) continue;
        if (last && e.begin < last->end)
            throw InputFileError(fmt::format("{}: tensors {} [{}, {}) and {} [{}, {}) overlap in the data: each tensor "
                                             "must have bytes of its own",
                                             name, last->name, last->begin, last->end, e.name, e.begin, e.end));
        if (!last || e.end > last->end) last = &e;
    }
}

// prod(shape), refused when it overflows or exceeds `limit`.
std::size_t element_count(const std::vector<std::size_t>& shape, std::size_t limit, const std::string& where) {
    std::size_t n = 1;
    for (std::size_t extent : shape) {
        if (extent != 0 && n > limit / extent)
            throw InputFileError(where + ": the shape asks for more elements than the file holds");
        n *= extent;
    }
    return n;
}

std::uint16_t double_to_bfloat16(double x) {
    return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(static_cast<float>(round_to(x, DType::bfloat16))) >> 16);
}

template <class Word>
Word load_little_endian(const char* p) {
    Word w;
    std::memcpy(&w, p, sizeof w);  // x86-64 and arm64 are little-endian, as the formats are
    return w;
}

double load_element(const char* p, DType dtype) {
    switch (dtype) {
        case DType::float64: return load_little_endian<double>(p);
        case DType::float32: return load_little_endian<float>(p);
        case DType::bfloat16: return bfloat16_to_double(load_little_endian<std::uint16_t>(p));
        case DType::float16: return half_to_double(load_little_endian<std::uint16_t>(p));
    }
    return 0;
}

void store_element(std::string& out, double x, DType dtype) {
    char bytes[8];
    std::size_t n = element_bytes(dtype);
    if (dtype == DType::float64) std::memcpy(bytes, &x, 8);
    else if (dtype == DType::float32) {
        const float f = static_cast<float>(x);
        std::memcpy(bytes, &f, 4);
    } else if (dtype == DType::bfloat16) {
        const std::uint16_t b = double_to_bfloat16(x);
        std::memcpy(bytes, &b, 2);
    } else {
        throw std::invalid_argument("float16 is read, not written");
    }
    out.append(bytes, n);
}

const char* safetensors_code(DType dtype) {
    switch (dtype) {
        case DType::float64: return "F64";
        case DType::float32: return "F32";
        case DType::bfloat16: return "BF16";
        case DType::float16: return "F16";
    }
    return "";
}

DType safetensors_dtype(const Json& code, const std::string& where) {
    for (DType d : {DType::float64, DType::float32, DType::bfloat16, DType::float16})
        if (code == safetensors_code(d)) return d;
    throw InputFileError(where + ".dtype: expected \"F64\", \"F32\", \"BF16\" or \"F16\", found " + code.dump());
}

std::size_t header_integer(const Json& value, const std::string& where) {
    if (!value.is_number_unsigned()) throw InputFileError(where + ": expected a whole number >= 0, found " + value.dump());
    return value.get<std::size_t>();
}

}  // namespace

DType dtype_named(const std::string& name) {
    for (DType d : {DType::float64, DType::float32, DType::bfloat16, DType::float16})
        if (name == dtype_name(d)) return d;
    throw std::invalid_argument("'" + name + "' is not float64, float32, bfloat16 or float16");
}

const char* dtype_name(DType dtype) {
    switch (dtype) {
        case DType::float64: return "float64";
        case DType::float32: return "float32";
        case DType::bfloat16: return "bfloat16";
        case DType::float16: return "float16";
    }
    return "";
}

// Rounds the significand to the type's bits (53, 24, 8, 11) with the current (nearest-even)
// rounding mode; the values here stay well inside each type's normal range.
std::string shape_text(const std::vector<std::size_t>& shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

double round_to(double x, DType dtype) {
    if (dtype == DType::float64 || !std::isfinite(x) || x == 0) return x;
    if (dtype == DType::float32) return static_cast<float>(x);
    const int bits = dtype == DType::bfloat16 ? 8 : 11;
    int exponent = 0;
    const double significand = std::frexp(x, &exponent);  // x = significand 2^exponent, |significand| in [0.5, 1)
    return std::ldexp(std::nearbyint(std::ldexp(significand, bits)), exponent - bits);
}

// An integer element ('<i8' or '<i4', as numpy saves position_ids) as a double, exactly.
double load_integer(const char* p, std::size_t width, const std::string& name) {
    const std::int64_t x = width == 8 ? load_little_endian<std::int64_t>(p) : load_little_endian<std::int32_t>(p);
    if (x > (std::int64_t(1) << 53) || x < -(std::int64_t(1) << 53))
        throw InputFileError(name + ": the integer " + std::to_string(x) + " is beyond 2^53");
    return static_cast<double>(x);
}

Tensor read_npy(const std::filesystem::path& file) {
    const std::string bytes = read_bytes(file);
    const std::string name = file.string();
    const NpyHeader header = read_npy_header(bytes, name);
    Tensor t;
    const bool integer = header.descr == "<i8" || header.descr == "<i4";
    if (header.descr == "<f8" || integer) t.dtype = DType::float64;
    else if (header.descr == "<f4") t.dtype = DType::float32;
    else if (header.descr == "<f2") t.dtype = DType::float16;
    else
        throw InputFileError(name + ": dtype '" + header.descr +
                             "' is not supported; save float64, float32 or float16 (little-endian; int64 or int32 "
                             "for positions), or bfloat16 as .safetensors");
    const std::size_t width = header.descr == "<i4" ? 4 : element_bytes(t.dtype);
    const std::size_t available = bytes.size() - header.data_offset;
    const std::size_t n = element_count(header.shape, available / width, name);
    check_value_count(n, name);
    if (n * width != available)
        throw InputFileError(fmt::format("{}: the header's shape needs {} bytes of data, the file holds {}", name,
                                         n * width, available));
    t.shape = header.shape;
    t.values.resize(n);
    const char* data = bytes.data() + header.data_offset;
    auto element = [&](std::size_t k) {
        return integer ? load_integer(data + k * width, width, name) : load_element(data + k * width, t.dtype);
    };
    if (!header.fortran_order) {
        for (std::size_t k = 0; k < n; ++k) t.values[k] = element(k);
    } else {
        const std::vector<std::size_t> position = fortran_to_row_major(header.shape);  // C order whatever the file's
        for (std::size_t k = 0; k < n; ++k) t.values[position[k]] = element(k);
    }
    return t;
}

void write_npy(const std::filesystem::path& file, const Tensor& tensor) {
    std::string bytes;
    if (tensor.dtype == DType::float64) {
        bytes = xt::dump_npy(xt::adapt(tensor.values, tensor.shape));
    } else if (tensor.dtype == DType::float32) {
        std::vector<float> narrow(tensor.values.begin(), tensor.values.end());
        bytes = xt::dump_npy(xt::adapt(narrow, tensor.shape));
    } else {
        throw InputFileError(file.string() + ": .npy is written as float64 or float32 (numpy has no bfloat16); use "
                                             ".safetensors");
    }
    write_named_file(file, bytes);
}

std::vector<TensorEntry> safetensors_entries(std::string_view bytes, const std::string& name, std::size_t& data_at) {
    if (bytes.size() < 8) throw InputFileError(name + ": too short for a safetensors file");
    const auto header_size = load_little_endian<std::uint64_t>(bytes.data());
    if (header_size > max_header_bytes || header_size > bytes.size() - 8)
        throw InputFileError(fmt::format("{}: header length {} does not fit the file", name, header_size));
    const Json header = parse_ordered_json(std::string(bytes.substr(8, header_size)), name + ": the safetensors header");
    if (!header.is_object()) throw InputFileError(name + ": the safetensors header is not a JSON object");
    data_at = 8 + header_size;
    const std::size_t data_size = bytes.size() - data_at;
    std::vector<TensorEntry> entries;
    for (auto& [key, entry] : header.items()) {
        if (key == "__metadata__") continue;
        const std::string where = name + ": " + key;
        if (!entry.is_object() || !entry.contains("dtype") || !entry.contains("shape") || !entry.contains("data_offsets"))
            throw InputFileError(where + ": expected {\"dtype\", \"shape\", \"data_offsets\"}");
        TensorEntry t;
        t.name = key;
        t.dtype = safetensors_dtype(entry["dtype"], where);
        if (!entry["shape"].is_array()) throw InputFileError(where + ".shape: expected an array");
        for (const Json& extent : entry["shape"]) t.shape.push_back(header_integer(extent, where + ".shape"));
        const Json& offsets = entry["data_offsets"];
        if (!offsets.is_array() || offsets.size() != 2) throw InputFileError(where + ".data_offsets: expected [begin, end]");
        t.begin = header_integer(offsets[0], where + ".data_offsets");
        t.end = header_integer(offsets[1], where + ".data_offsets");
        if (t.begin > t.end || t.end > data_size)
            throw InputFileError(fmt::format("{}.data_offsets: [{}, {}] is outside the {} bytes of data", where, t.begin,
                                             t.end, data_size));
        const std::size_t width = element_bytes(t.dtype);
        const std::size_t n = element_count(t.shape, (t.end - t.begin) / width, where);
        if (n * width != t.end - t.begin)
            throw InputFileError(fmt::format("{}: the shape needs {} bytes, data_offsets give {}", where, n * width,
                                             t.end - t.begin));
        entries.push_back(std::move(t));
    }
    check_no_overlap(entries, name);
    return entries;
}

SafetensorsFile open_safetensors(const std::filesystem::path& file) {
    SafetensorsFile opened{file.string(), read_bytes(file), 0, {}};
    opened.entries = safetensors_entries(opened.bytes, opened.name, opened.data_at);
    return opened;
}

const TensorEntry* SafetensorsFile::find(const std::string& tensor) const {
    for (const TensorEntry& e : entries)
        if (e.name == tensor) return &e;
    return nullptr;
}

Tensor SafetensorsFile::values(const TensorEntry& entry) const {
    Tensor t{entry.dtype, entry.shape, {}};
    const std::size_t width = element_bytes(t.dtype);
    check_value_count((entry.end - entry.begin) / width, name + ": " + entry.name);
    t.values.resize((entry.end - entry.begin) / width);
    for (std::size_t i = 0; i < t.values.size(); ++i)
        t.values[i] = load_element(bytes.data() + data_at + entry.begin + i * width, t.dtype);
    return t;
}

NamedTensors read_safetensors(const std::filesystem::path& file) {
    const SafetensorsFile opened = open_safetensors(file);
    std::size_t total = 0;
    for (const TensorEntry& entry : opened.entries) total += (entry.end - entry.begin) / element_bytes(entry.dtype);
    check_value_count(total, opened.name);
    NamedTensors tensors;
    for (const TensorEntry& entry : opened.entries) tensors.emplace_back(entry.name, opened.values(entry));
    return tensors;
}

void write_safetensors(const std::filesystem::path& file, const NamedTensors& tensors,
                       const std::vector<std::pair<std::string, std::string>>& metadata) {
    Json header = Json::object();
    if (!metadata.empty()) {
        Json m = Json::object();
        for (auto& [key, value] : metadata) m[key] = value;
        header["__metadata__"] = m;
    }
    std::string data;
    for (auto& [key, t] : tensors) {
        const std::size_t begin = data.size();
        for (double x : t.values) store_element(data, x, t.dtype);
        header[key] = {{"dtype", safetensors_code(t.dtype)}, {"shape", t.shape}, {"data_offsets", {begin, data.size()}}};
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');  // the data starts 8-byte aligned
    std::string bytes(8, '\0');
    const std::uint64_t size = text.size();
    std::memcpy(bytes.data(), &size, 8);
    write_named_file(file, bytes + text + data);
}

}  // namespace blockcheck
