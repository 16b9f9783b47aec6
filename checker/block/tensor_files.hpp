// Tensors in the files other tools write: NumPy .npy (one array) and safetensors (named
// tensors: an 8-byte little-endian header length, a JSON header, raw little-endian data).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
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

// Reads one .npy array ('<f8', '<f4' or '<f2', C or Fortran order; the header by npy_header.hpp's reader).
// A bad file is an InputFileError naming it; nothing is allocated before the header's size
// agrees with the file's.
Tensor read_npy(const std::filesystem::path& file);

// Writes `values` as a C-order .npy of dtype float64 or float32 (numpy has no bfloat16).
void write_npy(const std::filesystem::path& file, const Tensor& tensor);

// Every tensor of a .safetensors file, in the header's order (F64, F32, BF16, F16).
NamedTensors read_safetensors(const std::filesystem::path& file);

// Writes tensors (F64, F32 or BF16; values rounded to the nearest, ties to even) with
// optional "__metadata__" string pairs.
void write_safetensors(const std::filesystem::path& file, const NamedTensors& tensors,
                       const std::vector<std::pair<std::string, std::string>>& metadata = {});

// The value nearest x in `dtype` (ties to even), as a double.
double round_to(double x, DType dtype);

}  // namespace blockcheck
