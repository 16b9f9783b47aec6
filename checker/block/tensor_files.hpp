// Tensors in the files other tools write: NumPy .npy (one array) and safetensors (named
// tensors: an 8-byte little-endian header length, a JSON header, raw little-endian data).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace blockcheck {

// Element types: float64, float32, bfloat16, float16. Every value of each is a double exactly.
enum class DType { float64, float32, bfloat16, float16 };

// "float32" -> DType::float32; throws std::invalid_argument naming the text otherwise.
DType dtype_named(const std::string& name);
const char* dtype_name(DType dtype);

struct Tensor {
    DType dtype = DType::float64;
    std::vector<std::size_t> shape;
    std::vector<double> values;  // row-major, prod(shape) values
};

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

// Reads one .npy array ('<f8', '<f4' or '<f2', or integers '<i8' and '<i4' up to 2^53 as float64
// values; C or Fortran order; the header by npy_header.hpp's reader).
// A bad file is an InputFileError naming it; nothing is allocated before the header's size
// agrees with the file's.
Tensor read_npy(const std::filesystem::path& file);

// Writes `values` as a C-order .npy of dtype float64 or float32 (numpy has no bfloat16).
void write_npy(const std::filesystem::path& file, const Tensor& tensor);

// One tensor a safetensors header describes: its bytes are [begin, end) of the data section.
struct TensorEntry {
    std::string name;
    DType dtype = DType::float64;
    std::vector<std::size_t> shape;
    std::size_t begin = 0, end = 0;
};

// The tensors of a safetensors file whose bytes (all of them, or a mapping of them) are `bytes`,
// each checked against the file (dtype, shape agreeing with its offsets, offsets inside the data,
// no two sharing bytes; the header read by parse_ordered_json's limits: 64 deep at most);
// data_at receives where the data section starts. A bad header is an InputFileError naming `name`.
std::vector<TensorEntry> safetensors_entries(std::string_view bytes, const std::string& name, std::size_t& data_at);

// The most values converted to doubles from one tensor file (2 GiB of doubles): a .npy, one tensor
// of a .safetensors file, or all the tensors read_safetensors converts (docs/checkpoints.md).
constexpr std::size_t max_tensor_values = std::size_t{1} << 28;

// A .safetensors file read (a regular file the user named, at most 4 GiB) and its header checked
// (safetensors_entries, and no two tensors sharing bytes), nothing converted yet: a reader converts
// only the tensors it uses.
struct SafetensorsFile {
    std::string name;
    std::string bytes;
    std::size_t data_at = 0;
    std::vector<TensorEntry> entries;
    const TensorEntry* find(const std::string& tensor) const;  // nullptr when absent
    Tensor values(const TensorEntry& entry) const;             // its values as doubles, exactly
};
SafetensorsFile open_safetensors(const std::filesystem::path& file);

// Every tensor of a .safetensors file, in the header's order (F64, F32, BF16, F16), at most
// max_tensor_values values in all.
NamedTensors read_safetensors(const std::filesystem::path& file);

// Writes tensors (F64, F32 or BF16; values rounded to the nearest, ties to even) with
// optional "__metadata__" string pairs.
void write_safetensors(const std::filesystem::path& file, const NamedTensors& tensors,
                       const std::vector<std::pair<std::string, std::string>>& metadata = {});

// A shape as messages write it: "[32, 4096]".
std::string shape_text(const std::vector<std::size_t>& shape);

// The value nearest x in `dtype` (ties to even), as a double.
double round_to(double x, DType dtype);

}  // namespace blockcheck
