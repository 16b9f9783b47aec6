// Row vectors and row-major matrices, multiplied as the chapter writes them: y = x W.
#pragma once

#include "base/tensor.hpp"

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace blockcheck {

// y = x W.  x: [in], w: [in, out] -> [out]
template <class T>
Vector<T> vec_mat(std::span<const T> x, const Matrix<T>& w) {
    if (x.size() != w.rows)
        throw std::invalid_argument("vector of " + std::to_string(x.size()) + " times matrix with " +
                                    std::to_string(w.rows) + " rows");
    Vector<T> y(w.cols, T(0));
    for (std::size_t i = 0; i < w.rows; ++i)
        for (std::size_t j = 0; j < w.cols; ++j) y[j] += x[i] * w(i, j);
    return y;
}

// Y = X W.  x: [T, in], w: [in, out] -> [T, out]
template <class T>
Matrix<T> matmul(const Matrix<T>& x, const Matrix<T>& w) {
    Matrix<T> y(x.rows, w.cols);
    for (std::size_t t = 0; t < x.rows; ++t) {
        Vector<T> row = vec_mat<T>(x.row(t), w);
        for (std::size_t j = 0; j < w.cols; ++j) y(t, j) = row[j];
    }
    return y;
}

// a + b, element by element (the residual add).  [T, C] + [T, C] -> [T, C]
template <class T>
Matrix<T> add(const Matrix<T>& a, const Matrix<T>& b) {
    if (a.rows != b.rows || a.cols != b.cols) throw std::invalid_argument("adding matrices of different shapes");
    Matrix<T> y = a;
    for (std::size_t i = 0; i < y.values.size(); ++i) y.values[i] += b.values[i];
    return y;
}

template <class T>
T dot(std::span<const T> a, std::span<const T> b) {
    T sum(0);
    for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
    return sum;
}

// Converts every element to another scalar type (double <-> 50 digits).
template <class To, class From>
Matrix<To> convert(const Matrix<From>& m) {
    Matrix<To> y(m.rows, m.cols);
    for (std::size_t i = 0; i < m.values.size(); ++i) y.values[i] = static_cast<To>(m.values[i]);
    return y;
}

}  // namespace blockcheck
