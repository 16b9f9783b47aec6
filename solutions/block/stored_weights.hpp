// Weight matrices left where a checkpoint stores them (a memory-mapped file), in its element
// type, widened to double as they are used; and the block's matrix product on them, on every
// core, each output element summed in one fixed order (the same bits for any thread count).
#pragma once

#include "base/float_formats.hpp"
#include "solutions/block/dd_dot.hpp"
#include "solutions/block/tensor.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <vector>

namespace blockcheck {

enum class StoredType { float64, float32, bfloat16, float16 };

inline std::size_t stored_bytes(StoredType type) {
    return type == StoredType::float64 ? 8 : type == StoredType::float32 ? 4 : 2;
}

// The chapter's weight W [in = rows, out = cols] (y = x W) over bytes it does not own. A Hugging
// Face nn.Linear stores W^T, [out, in] row-major (out_major); a transposed reading flips it.
struct StoredMatrix {
    const unsigned char* data = nullptr;  // little-endian elements of `type`
    StoredType type = StoredType::float32;
    std::size_t rows = 0, cols = 0;
    bool out_major = true;  // element (i, j) at j * rows + i; else at i * cols + j

    double element(std::size_t index) const {
        const unsigned char* p = data + index * stored_bytes(type);
        switch (type) {
            case StoredType::float64: { double x; std::memcpy(&x, p, 8); return x; }
            case StoredType::float32: { float x; std::memcpy(&x, p, 4); return x; }
            case StoredType::bfloat16: { std::uint16_t b; std::memcpy(&b, p, 2); return bfloat16_to_double(b); }
            case StoredType::float16: { std::uint16_t h; std::memcpy(&h, p, 2); return half_to_double(h); }
        }
        return 0;
    }
    // W(i, j), exactly.
    double operator()(std::size_t i, std::size_t j) const { return element(out_major ? j * rows + i : i * cols + j); }

    // Column j of W (one output's weights), widened into out[0 .. rows).
    void column(std::size_t j, double* out) const {
        if (!out_major) {
            for (std::size_t i = 0; i < rows; ++i) out[i] = element(i * cols + j);
            return;
        }
        const unsigned char* p = data + j * rows * stored_bytes(type);
        if (type == StoredType::bfloat16) {
            for (std::size_t i = 0; i < rows; ++i) {
                std::uint16_t b;
                std::memcpy(&b, p + 2 * i, 2);
                out[i] = bfloat16_to_double(b);
            }
        } else if (type == StoredType::float32) {
            for (std::size_t i = 0; i < rows; ++i) {
                float x;
                std::memcpy(&x, p + 4 * i, 4);
                out[i] = x;
            }
        } else {
            for (std::size_t i = 0; i < rows; ++i) out[i] = element(j * rows + i);
        }
    }
};

// W^T, the same bytes read the other way.
inline StoredMatrix transpose(const StoredMatrix& w) {
    StoredMatrix t = w;
    std::swap(t.rows, t.cols);
    t.out_major = !w.out_major;
    return t;
}

// The buffer nn.Linear stores, [out, in] row-major, read as [in, out] row-major (a reshape where a
// transpose was due; block.hpp's other_order on a matrix of numbers): W^T for a square matrix.
inline StoredMatrix other_order(const StoredMatrix& w) {
    if (!w.out_major && w.rows != w.cols)
        throw std::logic_error("a weight read in the other order must be as nn.Linear stores it");
    if (!w.out_major) return transpose(w);
    StoredMatrix read = w;
    read.out_major = false;
    return read;
}

// Threads the block's products use (0: one per core). Results do not depend on it.
inline unsigned& block_threads() {
    static unsigned threads = 0;
    return threads;
}

// f(begin, end) over [0, n) in contiguous chunks, one per thread.
template <class F>
void parallel_chunks(std::size_t n, F f) {
    const unsigned wanted = block_threads() ? block_threads() : std::max(1u, std::thread::hardware_concurrency());
    const std::size_t threads = std::min<std::size_t>(wanted, std::max<std::size_t>(1, n / 64));
    if (threads <= 1) return f(std::size_t(0), n);
    std::vector<std::thread> pool;
    for (std::size_t k = 1; k < threads; ++k) pool.emplace_back(f, n * k / threads, n * (k + 1) / threads);
    f(std::size_t(0), n / threads);
    for (std::thread& t : pool) t.join();
}

// One column's running sums for all rows at once, the rows' sums side by side: s_t += x_ti w_i for
// i = 0 .. n-1 in increasing i (each s_t the same running sum as an element-by-element loop's, the
// same bits), the inner loop over the T independent sums.  xt: [n, T] (x transposed), w: [n], s: [T]
template <class T>
[[gnu::always_inline]] inline void running_sums(T* __restrict s, const T* __restrict xt, const double* __restrict w,
                                                std::size_t n, std::size_t rows) {
    for (std::size_t i = 0; i < n; ++i) {
        const double wi = w[i];
        const T* __restrict xi = xt + i * rows;
        for (std::size_t t = 0; t < rows; ++t) s[t] += xi[t] * wi;
    }
}

// float's and double's sums vectorised across the rows where the CPU has AVX2 (no FMA contraction:
// the build is ISO C++, -ffp-contract=off, so each step rounds as the plain loop's does).
template <class T>
[[gnu::target("avx2")]] inline void running_sums_avx2(T* s, const T* xt, const double* w, std::size_t n,
                                                      std::size_t rows) {
    running_sums(s, xt, w, n, rows);
}
template <class T>
inline void running_sums_any(T* s, const T* xt, const double* w, std::size_t n, std::size_t rows) {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        static const bool avx2 = __builtin_cpu_supports("avx2");
        if (avx2) return running_sums_avx2(s, xt, w, n, rows);
    }
    running_sums(s, xt, w, n, rows);
}

// Y = X W at any precision: y_tj = sum_i x_ti W_ij, one running sum in increasing i. x is
// transposed once and each weight column widened once, then running_sums.  x: [T, in] -> [T, out]
template <class T>
Matrix<T> matmul(const Matrix<T>& x, const StoredMatrix& w) {
    if (x.cols != w.rows) throw std::invalid_argument("rows of " + std::to_string(x.cols) + " times a weight with " +
                                                      std::to_string(w.rows) + " rows");
    const std::size_t rows = x.rows, n = w.rows;
    std::vector<T> xt(n * rows);  // [in, T]
    for (std::size_t t = 0; t < rows; ++t)
        for (std::size_t i = 0; i < n; ++i) xt[i * rows + t] = x(t, i);
    Matrix<T> y(rows, w.cols);
    parallel_chunks(w.cols, [&](std::size_t begin, std::size_t end) {
        std::vector<double> column(n);
        std::vector<T> sums(rows);
        for (std::size_t j = begin; j < end; ++j) {
            w.column(j, column.data());
            std::fill(sums.begin(), sums.end(), T(0));
            running_sums_any(sums.data(), xt.data(), column.data(), n, rows);
            for (std::size_t t = 0; t < rows; ++t) y(t, j) = sums[t];
        }
    });
    return y;
}

// The double-double product: each y_tj by dd_dot (pairwise over leaves, its error bounded in
// docs/performance.md).  x: [T, in] -> [T, out]
inline Matrix<DoubleDouble> matmul(const Matrix<DoubleDouble>& x, const StoredMatrix& w) {
    if (x.cols != w.rows) throw std::invalid_argument("rows of " + std::to_string(x.cols) + " times a weight with " +
                                                      std::to_string(w.rows) + " rows");
    std::vector<double> high(x.values.size()), low(x.values.size());
    for (std::size_t i = 0; i < x.values.size(); ++i) high[i] = x.values[i].hi, low[i] = x.values[i].lo;
    Matrix<DoubleDouble> y(x.rows, w.cols);
    parallel_chunks(w.cols, [&](std::size_t begin, std::size_t end) {
        std::vector<double> column(w.rows);
        for (std::size_t j = begin; j < end; ++j) {
            w.column(j, column.data());
            for (std::size_t t = 0; t < x.rows; ++t)
                y(t, j) = dd_dot(high.data() + t * x.cols, low.data() + t * x.cols, column.data(), w.rows);
        }
    });
    return y;
}

// The products of one forward, kept so that later forwards on the same weights reuse them: the
// mistake search runs the layer once a mistake, and every product whose input is the reference's
// (each before the first stage the mistake changes; gate and up read swapped) is found here.
template <class T>
struct ProductMemo {
    struct Product {
        StoredMatrix w;
        Matrix<T> x, y;
    };
    std::vector<Product> products;
    bool recording = true;  // false: look products up, keep no new ones (each mistake's own are dropped)
    std::size_t computed = 0;  // products not found here, computed

    const Matrix<T>* find(const Matrix<T>& x, const StoredMatrix& w) const {
        for (const Product& p : products)
            if (p.w.data == w.data && p.w.type == w.type && p.w.rows == w.rows && p.w.cols == w.cols &&
                p.w.out_major == w.out_major && p.x.rows == x.rows && p.x.cols == x.cols && p.x.values == x.values)
                return &p.y;
        return nullptr;
    }
};

// A stored weight whose products go through a memo (the memo must outlive it).
template <class T>
struct RememberedMatrix {
    StoredMatrix stored;
    ProductMemo<T>* memo = nullptr;
    std::size_t rows = 0, cols = 0;

    RememberedMatrix() = default;
    RememberedMatrix(const StoredMatrix& w, ProductMemo<T>* m) : stored(w), memo(m), rows(w.rows), cols(w.cols) {}
};

template <class T>
RememberedMatrix<T> transpose(const RememberedMatrix<T>& w) { return {transpose(w.stored), w.memo}; }
template <class T>
RememberedMatrix<T> other_order(const RememberedMatrix<T>& w) { return {other_order(w.stored), w.memo}; }

// x W, or the product the memo already holds for this input and weight reading (the same bits).
template <class T>
Matrix<T> matmul(const Matrix<T>& x, const RememberedMatrix<T>& w) {
    if (const Matrix<T>* known = w.memo->find(x, w.stored)) return *known;
    Matrix<T> y = matmul(x, w.stored);
    ++w.memo->computed;
    if (w.memo->recording) w.memo->products.push_back({w.stored, x, y});
    return y;
}

}  // namespace blockcheck
