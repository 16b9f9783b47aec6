// RMSNorm (chapter 25.2) and LayerNorm (chapter 17, for contrast), one token row at a time.
#pragma once

#include "tensor.hpp"

#include <cmath>
#include <stdexcept>

namespace blockcheck {

// Thrown where a normalisation has no value: a zero row (RMSNorm) or a constant row
// (LayerNorm) with epsilon 0 would divide by zero.
struct UndefinedNorm : std::domain_error {
    using std::domain_error::domain_error;
};

// rms(x) = sqrt(mean_j x_j^2)
template <class T>
T root_mean_square(std::span<const T> x) {
    using std::sqrt;
    T sum(0);
    for (const T& v : x) sum += v * v;
    return sqrt(sum / T(static_cast<long>(x.size())));
}

// Where epsilon goes: under the square root, as the chapter's RMSNorm has it, or added to the
// root, a classic slip that is computed only to diagnose it (mistake eps_outside_sqrt).
enum class EpsPlacement { under_root, after_root };

// y_i = g_i x_i / sqrt(mean_j x_j^2 + eps)   (after_root: g_i x_i / (sqrt(mean_j x_j^2) + eps))
// x, gains: [C] -> [C]
template <class T>
Vector<T> rms_norm(std::span<const T> x, std::span<const T> gains, const T& eps,
                   EpsPlacement placement = EpsPlacement::under_root) {
    using std::sqrt;
    T mean_square(0);
    for (const T& v : x) mean_square += v * v;
    mean_square /= T(static_cast<long>(x.size()));
    T denominator = placement == EpsPlacement::under_root ? sqrt(mean_square + eps) : sqrt(mean_square) + eps;
    if (denominator == 0) throw UndefinedNorm("RMSNorm of an all-zero row with epsilon 0 is undefined");
    Vector<T> y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = gains[i] * x[i] / denominator;
    return y;
}

// y_i = g_i (x_i - mean) / sqrt(var + eps) + b_i.  x, gains, bias: [C] -> [C]
template <class T>
Vector<T> layer_norm(std::span<const T> x, std::span<const T> gains, std::span<const T> bias, const T& eps) {
    using std::sqrt;
    const T count(static_cast<long>(x.size()));
    T mean(0);
    for (const T& v : x) mean += v;
    mean /= count;
    T variance(0);
    for (const T& v : x) variance += (v - mean) * (v - mean);
    variance /= count;
    T denominator = sqrt(variance + eps);
    if (denominator == 0) throw UndefinedNorm("LayerNorm of a constant row with epsilon 0 is undefined");
    Vector<T> y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = gains[i] * (x[i] - mean) / denominator + bias[i];
    return y;
}

// RMSNorm of every row.  x: [T, C], gains: [C] -> [T, C]
template <class T>
Matrix<T> rms_norm_rows(const Matrix<T>& x, std::span<const T> gains, const T& eps,
                        EpsPlacement placement = EpsPlacement::under_root) {
    Matrix<T> y(x.rows, x.cols);
    for (std::size_t t = 0; t < x.rows; ++t) {
        Vector<T> row = rms_norm<T>(x.row(t), gains, eps, placement);
        std::copy(row.begin(), row.end(), y.row(t).begin());
    }
    return y;
}

}  // namespace blockcheck
