// Exercise 25.6-3: a common shift changes RMSNorm's output and not LayerNorm's.
#include "solutions/ch25/references.hpp"

namespace blockcheck {

Values rms_norm_shift(const Inputs& in) {
    const Vector<Real>& row = in.vector("row");  // [C]
    const Vector<Real> shifted_row = ch25::shifted(row, in.number("shift"));
    const Value rms = ch25::rms_norm_unit(in, row), shifted_rms = ch25::rms_norm_unit(in, shifted_row);
    const Value layer = ch25::layer_norm_unit(in, row), shifted_layer = ch25::layer_norm_unit(in, shifted_row);
    return {
        {"rms_norm", rms},
        {"shifted_rms_norm", shifted_rms},
        {"layer_norm", layer},
        {"shifted_layer_norm", shifted_layer},
        {"rms_norm_keeps_output", ch25::boolean(same_values(rms, shifted_rms))},
        {"layer_norm_keeps_output", ch25::boolean(same_values(layer, shifted_layer))},
    };
}

}  // namespace blockcheck
