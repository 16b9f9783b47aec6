// NTK-aware scaling: a larger base leaves the fastest pair alone and slows the slowest pair
// by exactly the factor s.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> ntk_aware_scaling(const Inputs& in) {
    const S base = companion::positive_number<S>(in, "base");
    const S factor = companion::positive_number<S>(in, "factor");
    const Count head_dim = positive_count(in, "head_dim");
    if (head_dim % 2 != 0 || head_dim < 4) throw InputError("input 'head_dim' should be even and at least 4");

    const Rope<S> plain = companion::plain_rope(in, base, head_dim);
    const Rope<S> linear = companion::plain_rope(in, base, head_dim, companion::linear_scaling(in, factor));
    // The NTK plan from the base (the student's own, when a step is judged from it: the plain plan
    // on that base).
    const S ntk_base = in.given_or("ntk_base", companion::ntk_scaled_base(in, base, factor, head_dim));
    if (ntk_base <= 0) throw InputError("a base must be positive");
    const Rope<S> ntk = in.given("ntk_base") ? companion::plain_rope(in, ntk_base, head_dim)
                                             : companion::ntk_rope(in, base, factor, head_dim);
    const std::size_t last = plain.inverse_frequencies.size() - 1;
    const S last_speed = in.given_or("last_inverse_frequency", rope_angle(plain, last, S(1)));
    const S ntk_last_speed = in.given_or("ntk_last_inverse_frequency", rope_angle(ntk, last, S(1)));
    if (ntk_last_speed == 0) throw InputError("a pair that never turns has no slowdown");
    return {
        {"ntk_base", ntk_base},
        {"first_inverse_frequency", rope_angle(plain, 0, S(1))},
        {"last_inverse_frequency", last_speed},
        {"ntk_first_inverse_frequency", rope_angle(ntk, 0, S(1))},
        {"ntk_last_inverse_frequency", ntk_last_speed},
        {"last_pair_slowdown", S(last_speed / ntk_last_speed)},
        {"linear_first_inverse_frequency", rope_angle(linear, 0, S(1))},
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(ntk_aware_scaling)

}  // namespace blockcheck
