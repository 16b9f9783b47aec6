// Exercise 25.6-2: the RMSNorm denominator of [0, 2], and the all-zero row.
#include "solutions/ch25/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> rms_norm_zero_row(const Inputs& in) {
    const Vector<S> row = vector_of<S>(in, "row");  // [C]
    return {
        {"mean_square", ch25::mean_square(in, row)},
        {"root_mean_square", ch25::root_mean_square(in, row)},
        {"rms_norm", ch25::rms_norm_unit(in, row)},
        {"zero_row_rms_norm", ch25::rms_norm_unit(in, vector_of<S>(in, "zero_row"))},
        // B: the squares of the output average one over the C coordinates (the length would
        // make them sum to one).
        {"why_root_of_mean", ValueOf<S>(Choice{"B"})},
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(rms_norm_zero_row)

}  // namespace blockcheck
