// Linear interpolation and NTK-aware scaling compared pair by pair.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> ntk_vs_linear(const Inputs& in) {
    const S base = companion::positive_number<S>(in, "base");
    const S factor = companion::positive_number<S>(in, "factor");
    const Count head_dim = positive_count(in, "head_dim");
    if (head_dim % 2 != 0 || head_dim < 4) throw InputError("input 'head_dim' should be even and at least 4");

    const Rope<S> plain = companion::plain_rope(in, base, head_dim);
    const Rope<S> linear = companion::plain_rope(in, base, head_dim, companion::linear_scaling(in, factor));
    const Rope<S> ntk = companion::ntk_rope(in, base, factor, head_dim);
    // Each step from the one before it (the student's own, when a step is judged from it).
    const Vector<S> speed = in.given_or("inverse_frequencies", companion::radians_per_position(plain));
    Rope<S> own_linear = linear;
    own_linear.inverse_frequencies = speed;
    const Vector<S> linear_speed = in.given_or("linear_inverse_frequencies", companion::radians_per_position(own_linear));
    const Vector<S> ntk_speed = in.given_or("ntk_inverse_frequencies", companion::radians_per_position(ntk));
    return {
        {"inverse_frequencies", speed},
        {"linear_inverse_frequencies", linear_speed},
        {"ntk_inverse_frequencies", ntk_speed},
        {"linear_slowdown", companion::ratios(speed, linear_speed)},
        {"ntk_slowdown", companion::ratios(speed, ntk_speed)},  // s^(2i/(d-2))
        {"keeps_fastest_pair", ValueOf<S>(Choice{"B"})},        // NTK-aware only
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(ntk_vs_linear)

}  // namespace blockcheck
