// Position Interpolation: squeeze target_positions into the trained range by dividing every
// position by target / trained before it turns the stamp.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> position_interpolation(const Inputs& in) {
    const S trained = whole_of<S>(in, "trained_positions", 1);
    const S target = whole_of<S>(in, "target_positions", 1);
    const S position = whole_of<S>(in, "position", 0);
    // s = target / trained.  Mistakes factor_inverted (trained / target) and integer_factor
    // (target / trained in integers: the remainder dropped).
    // (the student's own factor and landed position, when a step is judged from them)
    const S factor = in.given_or("interpolation_factor", in.mistake("factor_inverted")  ? S(trained / target)
                                                         : in.mistake("integer_factor") ? whole_quotient<S>(target, trained)
                                                                                        : S(target / trained));
    if (factor <= 0) throw InputError("a factor must be positive");
    const Rope<S> rope = companion::stamp_rope<S>(in);
    // Mistake angle_not_scaled: the factor computed but positions never divided by it. Mistake
    // factor_inverted, in a step from the student's own factor: positions multiplied by it.
    const S divisor = in.mistake("angle_not_scaled")                                      ? S(1)
                      : in.given("interpolation_factor") && in.mistake("factor_inverted") ? S(S(1) / factor)
                                                                                          : factor;
    const Rope<S> squeezed = companion::interpolated(rope, divisor);
    const S landed = in.given_or("landed_position", S(position / squeezed.position_divisor));
    return {
        {"interpolation_factor", factor},
        {"neighbour_angle_degrees", degrees(rope_angle(squeezed, 0, S(1)))},
        {"landed_position", landed},
        {"landed_angle_degrees", degrees(rope_angle(rope, 0, landed))},  // = rope_angle(squeezed, 0, position)
        {"unscaled_angle_degrees", degrees(rope_angle(rope, 0, position))},
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(position_interpolation)

}  // namespace blockcheck
