// Exercise 25.6-3: a common shift changes RMSNorm's output and not LayerNorm's.
#include "solutions/ch25/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> rms_norm_shift(const Inputs& in) {
    const Vector<S> row = vector_of<S>(in, "row");  // [C]
    const Vector<S> shifted_row = ch25::shifted(row, number_of<S>(in, "shift"));
    const ValueOf<S> rms = ch25::rms_norm_unit(in, row), shifted_rms = ch25::rms_norm_unit(in, shifted_row);
    const ValueOf<S> layer = ch25::layer_norm_unit(in, row), shifted_layer = ch25::layer_norm_unit(in, shifted_row);
    return {
        {"rms_norm", rms},
        {"shifted_rms_norm", shifted_rms},
        {"layer_norm", layer},
        {"shifted_layer_norm", shifted_layer},
        {"rms_norm_keeps_output", boolean_of<S>(same_values(real_value(rms), real_value(shifted_rms)))},
        {"layer_norm_keeps_output", boolean_of<S>(same_values(real_value(layer), real_value(shifted_layer)))},
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(rms_norm_shift)

}  // namespace blockcheck
