// Position Interpolation on a multi-frequency plan: every pair slows down by the same factor.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> interpolation_every_frequency(const Inputs& in) {
    const S base = companion::positive_number<S>(in, "base");
    const S factor = companion::positive_number<S>(in, "factor");
    const Count head_dim = positive_count(in, "head_dim");
    const S position = whole_of<S>(in, "position", 0);
    if (head_dim % 2 != 0) throw InputError("input 'head_dim' should be even");

    const Rope<S> plain = companion::plain_rope(in, base, head_dim);
    const Rope<S> linear = companion::plain_rope(in, base, head_dim, companion::linear_scaling(in, factor));
    // Each step from the one before it (the student's own, when a step is judged from it).
    const Vector<S> speed = in.given_or("inverse_frequencies", plain.inverse_frequencies);
    Rope<S> own_linear = linear;
    own_linear.inverse_frequencies = speed;
    const Vector<S> linear_speed = in.given_or("interpolated_inverse_frequencies", companion::radians_per_position(own_linear));
    Vector<S> angles(speed.size()), linear_angles(speed.size());
    for (std::size_t i = 0; i < speed.size(); ++i) {
        angles[i] = position * speed[i];                // rope_angle(plain, i, position)
        linear_angles[i] = position * linear_speed[i];  // rope_angle(linear, i, position)
    }
    return {
        {"inverse_frequencies", speed},
        {"interpolated_inverse_frequencies", linear_speed},
        {"angles", angles},
        {"interpolated_angles", linear_angles},
        {"slowdown", companion::ratios(speed, linear_speed)},
        {"which_pairs_slow_down", ValueOf<S>(Choice{"B"})},  // every pair, by the same factor
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(interpolation_every_frequency)

}  // namespace blockcheck
