#include "checker/block/rope_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace blockcheck {

template <class T>
std::size_t RopeConfig<T>::original_context() const {
    return scaling.original_context ? scaling.original_context : max_position_embeddings;
}

template <class T>
std::size_t RopeConfig<T>::longest_context() const {
    using std::ceil;
    std::size_t longest = max_position_embeddings;
    if (scaling.type != RopeScalingType::none && original_context() > 0) {
        const T stretched = ceil(scaling.factor * T(static_cast<long>(original_context())));
        longest = std::max(longest, static_cast<std::size_t>(static_cast<long>(stretched)));
    }
    return longest;
}

template <class T>
std::vector<long> RopeConfig<T>::default_positions() const {
    const auto original = static_cast<long>(original_context()), longest = static_cast<long>(longest_context());
    std::vector<long> positions{0};
    for (long p : {original - 1, original, longest - 1})
        if (p > positions.back() && (p < longest || longest == 0)) positions.push_back(p);
    return positions;
}

template struct RopeConfig<Mpfr50>;

}  // namespace blockcheck
