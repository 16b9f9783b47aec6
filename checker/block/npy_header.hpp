// The header of a NumPy .npy file, read by a small reader of our own rather than xtensor's:
// xtensor's public xt::load_npy parses the header and allocates the array it announces in one
// call, with no way to check the header against the file first (a 40-byte file can announce
// 2^60 elements), and it cannot read float16; its header parser is a private xt::detail
// function that any xtensor update may change. The format (numpy's NEP 1):
//   "\x93NUMPY", major, minor, header length (2 bytes little-endian for 1.0, 4 for 2.0/3.0),
//   then the header: a Python dict literal {'descr': '<f8', 'fortran_order': False,
//   'shape': (3, 4), } padded with spaces and ended by '\n', then the raw data.
// Only the form numpy itself writes is accepted; everything else is refused with a message
// naming the file and the field.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace blockcheck {

struct NpyHeader {
    std::string descr;                // numpy's type string: "<f8", "<f4", "<f2", ...
    bool fortran_order = false;       // column-major data when true
    std::vector<std::size_t> shape;   // () for a scalar
    std::size_t data_offset = 0;      // where the data begins in the file
};

// The header of the .npy file `bytes`; an InputFileError "NAME: ..." naming what is wrong (the
// magic, the version, the header's length, or its descr, fortran_order or shape field).
NpyHeader read_npy_header(std::string_view bytes, const std::string& name);

// The row-major position of each element of an array stored in Fortran (column-major) order:
// element k of the data belongs at position result[k].
std::vector<std::size_t> fortran_to_row_major(const std::vector<std::size_t>& shape);

}  // namespace blockcheck
