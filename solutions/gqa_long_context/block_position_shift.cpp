// Only the rotation of Q and K sees positions, and only through their differences: the same
// rows placed `shift` positions later give the same block output.
#include "solutions/gqa_long_context/tiny_block.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> block_position_shift(const Inputs& in) {
    const companion::TinyBlock<S> b = companion::read_tiny_block<S>(in);
    const long shift = integer_at_least(in, "shift", 0);
    const Matrix<S> at_start = block_forward(b.config, b.weights, b.x, 0);
    const Matrix<S> shifted = block_forward(b.config, b.weights, b.x, shift);
    return {
        {"shifted_output", shifted},
        {"output_changes", boolean_of<S>(!same_values(real_values(at_start.values), real_values(shifted.values)))},
        {"sees_position", choice_of<S>("B")},   // only the rotation of Q and K
        {"norm_placement", choice_of<S>("C")},  // on each sublayer's input; the residual bypasses it
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(block_position_shift)

}  // namespace blockcheck
