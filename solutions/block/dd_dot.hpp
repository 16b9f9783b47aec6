// The hot loop of the double-double block: the dot product of a double-double row x = xh + xl
// with a row of double weights w, in one fixed summation order (so the bits do not depend on
// the thread count or the machine's vector width), vectorised for AVX2 + FMA where the CPU has
// them. docs/performance.md bounds its error.
#pragma once

#include "solutions/block/double_double.hpp"

#include <cstddef>

namespace blockcheck {

// Elements summed by one leaf, and the leaf's lanes (lane l sums the elements i = l mod lanes).
inline constexpr std::size_t dd_dot_leaf = 256, dd_dot_lanes = 16;

// (sh, sl) += (xh + xl) w for one element: the product exactly as p + e (TwoProd) plus the
// rounded xl w, added to the lane's double-double by TwoSum on the high parts and one
// renormalisation (QD's sloppy add; its error is <= 4 u^2 of the larger operand, u = 2^-53).
[[gnu::always_inline]] inline void dd_accumulate(double& sh, double& sl, double xh, double xl, double w) {
    const double p = xh * w;
    const double e = std::fma(xh, w, -p) + xl * w;
    const double s = sh + p, b_virtual = s - sh;
    const double t = ((sh - (s - b_virtual)) + (p - b_virtual)) + (sl + e);
    sh = s + t;
    sl = t - (sh - s);
}

// Sum of x_i w_i over one leaf (n <= dd_dot_leaf): lanes in increasing i, then the lanes
// combined pairwise ((0+8) ... then (0+4) ...) by accurate double-double additions.
[[gnu::always_inline]] inline DoubleDouble dd_dot_leaf_sum(const double* xh, const double* xl, const double* w,
                                                           std::size_t n) {
    double sh[dd_dot_lanes] = {}, sl[dd_dot_lanes] = {};
    std::size_t i = 0;
    for (; i + dd_dot_lanes <= n; i += dd_dot_lanes)
        for (std::size_t l = 0; l < dd_dot_lanes; ++l) dd_accumulate(sh[l], sl[l], xh[i + l], xl[i + l], w[i + l]);
    for (std::size_t l = 0; i < n; ++i, ++l) dd_accumulate(sh[l], sl[l], xh[i], xl[i], w[i]);
    DoubleDouble lanes[dd_dot_lanes];
    for (std::size_t l = 0; l < dd_dot_lanes; ++l) lanes[l] = DoubleDouble::from_sum(quick_two_sum(sh[l], sl[l]));
    for (std::size_t width = dd_dot_lanes / 2; width > 0; width /= 2)
        for (std::size_t l = 0; l < width; ++l) lanes[l] += lanes[l + width];
    return lanes[0];
}

[[gnu::target("avx2,fma")]] inline DoubleDouble dd_dot_leaf_avx2(const double* xh, const double* xl, const double* w,
                                                                std::size_t n) {
    return dd_dot_leaf_sum(xh, xl, w, n);
}
inline DoubleDouble dd_dot_leaf_portable(const double* xh, const double* xl, const double* w, std::size_t n) {
    return dd_dot_leaf_sum(xh, xl, w, n);
}

// The same bits either way: TwoProd by a hardware FMA or by libm's fma is exact.
inline DoubleDouble dd_dot_leaf_any(const double* xh, const double* xl, const double* w, std::size_t n) {
    static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return avx2 ? dd_dot_leaf_avx2(xh, xl, w, n) : dd_dot_leaf_portable(xh, xl, w, n);
}

// sum_i (xh_i + xl_i) w_i: leaves of dd_dot_leaf elements, added pairwise (the first half of the
// leaves, rounded up, plus the rest), so the depth is log2(n / dd_dot_leaf) additions.
inline DoubleDouble dd_dot(const double* xh, const double* xl, const double* w, std::size_t n) {
    if (n <= dd_dot_leaf) return dd_dot_leaf_any(xh, xl, w, n);
    const std::size_t leaves = (n + dd_dot_leaf - 1) / dd_dot_leaf, first = (leaves + 1) / 2 * dd_dot_leaf;
    return dd_dot(xh, xl, w, first) + dd_dot(xh + first, xl + first, w + first, n - first);
}

}  // namespace blockcheck
