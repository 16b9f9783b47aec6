// Position Interpolation: squeeze target_positions into the trained range by dividing every
// position by target / trained before it turns the stamp.
#include "solutions/gqa_long_context/references.hpp"

namespace blockcheck {

Values position_interpolation(const Inputs& in) {
    const Real trained(integer_at_least(in, "trained_positions", 1));
    const Real target(integer_at_least(in, "target_positions", 1));
    const Real position(integer_at_least(in, "position", 0));
    // s = target / trained.  Mistakes factor_inverted (trained / target) and integer_factor
    // (target / trained in integers: the remainder dropped).
    using std::floor;
    const Real factor = in.mistake("factor_inverted") ? trained / target
                        : in.mistake("integer_factor") ? floor(target / trained)
                                                       : target / trained;
    const Rope<Real> rope = companion::stamp_rope(in);
    // Mistake angle_not_scaled: the factor computed but positions never divided by it.
    const Rope<Real> squeezed = companion::interpolated(rope, in.mistake("angle_not_scaled") ? Real(1) : factor);
    return {
        {"interpolation_factor", factor},
        {"neighbour_angle_degrees", companion::degrees(rope_angle(squeezed, 0, Real(1)))},
        {"landed_position", position / squeezed.position_divisor},
        {"landed_angle_degrees", companion::degrees(rope_angle(squeezed, 0, position))},
        {"unscaled_angle_degrees", companion::degrees(rope_angle(rope, 0, position))},
    };
}

}  // namespace blockcheck
