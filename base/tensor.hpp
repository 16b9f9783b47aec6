// Row vectors and row-major matrices: the shapes the block computes with and the protocol's
// vector and matrix answers are read into.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <vector>

namespace blockcheck {

template <class T>
using Vector = std::vector<T>;

// A [rows, cols] matrix; row r is one token (activations) or one input coordinate (weights).
template <class T>
struct Matrix {
    std::size_t rows = 0, cols = 0;
    std::vector<T> values;

    Matrix() = default;
    Matrix(std::size_t r, std::size_t c) : rows(r), cols(c), values(r * c, T(0)) {}

    T& operator()(std::size_t r, std::size_t c) { return values[r * cols + c]; }
    const T& operator()(std::size_t r, std::size_t c) const { return values[r * cols + c]; }
    std::span<T> row(std::size_t r) { return {values.data() + r * cols, cols}; }
    std::span<const T> row(std::size_t r) const { return {values.data() + r * cols, cols}; }
};

template <class T>
Matrix<T> matrix_from_rows(const std::vector<Vector<T>>& rows) {
    Matrix<T> m(rows.size(), rows.empty() ? 0 : rows.front().size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].size() != m.cols) throw std::invalid_argument("rows of different lengths");
        for (std::size_t c = 0; c < m.cols; ++c) m(r, c) = rows[r][c];
    }
    return m;
}

// M^T.  m: [R, C] -> [C, R]
template <class T>
Matrix<T> transpose(const Matrix<T>& m) {
    Matrix<T> t(m.cols, m.rows);
    for (std::size_t r = 0; r < m.rows; ++r)
        for (std::size_t c = 0; c < m.cols; ++c) t(c, r) = m(r, c);
    return t;
}

}  // namespace blockcheck
