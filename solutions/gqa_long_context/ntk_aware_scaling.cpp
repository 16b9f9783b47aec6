// NTK-aware scaling: a larger base leaves the fastest pair alone and slows the slowest pair
// by exactly the factor s.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

Values ntk_aware_scaling(const Inputs& in) {
    const Real& base = companion::positive_number(in, "base");
    const Real& factor = companion::positive_number(in, "factor");
    const Count head_dim = positive_count(in, "head_dim");
    if (head_dim % 2 != 0 || head_dim < 4) throw InputError("input 'head_dim' should be even and at least 4");

    const Rope<Real> plain = companion::plain_rope(in, base, head_dim);
    const Rope<Real> linear = companion::plain_rope(in, base, head_dim, companion::linear_scaling(in, factor));
    // The NTK plan from the base (the student's own, when a step is judged from it: the plain plan
    // on that base).
    const Real ntk_base = in.given_or("ntk_base", companion::ntk_scaled_base(in, base, factor, head_dim));
    if (ntk_base <= 0) throw InputError("a base must be positive");
    const Rope<Real> ntk = in.given("ntk_base") ? companion::plain_rope(in, ntk_base, head_dim)
                                                : companion::ntk_rope(in, base, factor, head_dim);
    const std::size_t last = plain.inverse_frequencies.size() - 1;
    const Real last_speed = in.given_or("last_inverse_frequency", rope_angle(plain, last, Real(1)));
    const Real ntk_last_speed = in.given_or("ntk_last_inverse_frequency", rope_angle(ntk, last, Real(1)));
    if (ntk_last_speed == 0) throw InputError("a pair that never turns has no slowdown");
    return {
        {"ntk_base", ntk_base},
        {"first_inverse_frequency", rope_angle(plain, 0, Real(1))},
        {"last_inverse_frequency", last_speed},
        {"ntk_first_inverse_frequency", rope_angle(ntk, 0, Real(1))},
        {"ntk_last_inverse_frequency", ntk_last_speed},
        {"last_pair_slowdown", Real(last_speed / ntk_last_speed)},
        {"linear_first_inverse_frequency", rope_angle(linear, 0, Real(1))},
    };
}

}  // namespace blockcheck
