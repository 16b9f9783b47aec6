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
    // (the student's own factor and landed position, when a step is judged from them)
    const Real factor = in.given_or("interpolation_factor", in.mistake("factor_inverted")  ? Real(trained / target)
                                                            : in.mistake("integer_factor") ? Real(floor(target / trained))
                                                                                           : Real(target / trained));
    if (factor <= 0) throw InputError("a factor must be positive");
    const Rope<Real> rope = companion::stamp_rope(in);
    // Mistake angle_not_scaled: the factor computed but positions never divided by it. Mistake
    // factor_inverted, in a step from the student's own factor: positions multiplied by it.
    const Real divisor = in.mistake("angle_not_scaled")                                   ? Real(1)
                         : in.given("interpolation_factor") && in.mistake("factor_inverted") ? Real(Real(1) / factor)
                                                                                            : factor;
    const Rope<Real> squeezed = companion::interpolated(rope, divisor);
    const Real landed = in.given_or("landed_position", Real(position / squeezed.position_divisor));
    return {
        {"interpolation_factor", factor},
        {"neighbour_angle_degrees", companion::degrees(rope_angle(squeezed, 0, Real(1)))},
        {"landed_position", landed},
        {"landed_angle_degrees", companion::degrees(rope_angle(rope, 0, landed))},  // = rope_angle(squeezed, 0, position)
        {"unscaled_angle_degrees", companion::degrees(rope_angle(rope, 0, position))},
    };
}

}  // namespace blockcheck
