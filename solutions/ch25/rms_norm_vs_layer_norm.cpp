// Example 25.2: RMSNorm keeps a row's offset, LayerNorm removes it.
#include "solutions/ch25/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> rms_norm_vs_layer_norm(const Inputs& in) {
    const Vector<S> row = vector_of<S>(in, "row");  // [C]
    const Vector<S> shifted_row = ch25::shifted(row, number_of<S>(in, "shift"));
    return {
        {"mean_square", ch25::mean_square(in, row)},
        {"root_mean_square", ch25::root_mean_square(in, row)},
        {"rms_norm", ch25::rms_norm_unit(in, row)},
        {"shifted_rms_norm", ch25::rms_norm_unit(in, shifted_row)},
        {"layer_norm", ch25::layer_norm_unit(in, row)},
        {"shifted_layer_norm", ch25::layer_norm_unit(in, shifted_row)},
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(rms_norm_vs_layer_norm)

}  // namespace blockcheck
