#include "checker/insight/insight_stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace blockcheck {

std::optional<double> point_biserial(const std::vector<double>& x, const std::vector<double>& y) {
    const std::size_t n = std::min(x.size(), y.size());
    if (n < 2) return std::nullopt;
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
    mx /= double(n), my /= double(n);
    double sxy = 0, sxx = 0, syy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    if (sxx <= 1e-12 || syy <= 1e-12) return std::nullopt;
    return sxy / std::sqrt(sxx * syy);
}

std::optional<double> upper_lower_index(const std::vector<double>& item, const std::vector<double>& rest) {
    const std::size_t n = std::min(item.size(), rest.size());
    if (n < 4) return std::nullopt;
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rest[a] > rest[b]; });
    const std::size_t g = std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(0.27 * double(n))));
    double upper = 0, lower = 0;
    for (std::size_t i = 0; i < g; ++i) upper += item[order[i]], lower += item[order[n - 1 - i]];
    return (upper - lower) / double(g);
}

}  // namespace blockcheck
