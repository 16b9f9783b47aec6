// Only the rotation of Q and K sees positions, and only through their differences: the same
// rows placed `shift` positions later give the same block output.
#include "solutions/gqa_long_context/tiny_block.hpp"

namespace blockcheck {

Values block_position_shift(const Inputs& in) {
    const companion::TinyBlock b = companion::read_tiny_block(in);
    const long shift = integer_at_least(in, "shift", 0);
    const Matrix<Real> at_start = block_forward(b.config, b.weights, b.x, 0);
    const Matrix<Real> shifted = block_forward(b.config, b.weights, b.x, shift);
    return {
        {"shifted_output", shifted},
        {"output_changes", companion::boolean(!same_values(at_start.values, shifted.values))},
        {"sees_position", companion::choice("B")},   // only the rotation of Q and K
        {"norm_placement", companion::choice("C")},  // on each sublayer's input; the residual bypasses it
    };
}

}  // namespace blockcheck
