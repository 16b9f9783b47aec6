// Two misconceptions checked with numbers: SiLU is not a pass ratio in [0, 1], and RMSNorm's
// output does not have zero mean.
#include "solutions/gqa_long_context/references.hpp"
#include "solutions/block/ffn.hpp"
#include "solutions/block/norms.hpp"

#include <algorithm>

namespace blockcheck {

Values misconceptions_by_numbers(const Inputs& in) {
    using std::abs;
    using std::exp;
    const Vector<Real>& gate = in.vector("gate_values");
    Vector<Real> sigmoid(gate.size()), silu_values(gate.size());
    GateActivation activation = GateActivation::silu;  // x * sigmoid(x), through the activation's switch
    in.mistake_on([&](std::string_view id) { return make_activation_mistake(activation, id); });
    for (std::size_t i = 0; i < gate.size(); ++i) {
        sigmoid[i] = Real(1) / (Real(1) + exp(-gate[i]));  // the gate's pass ratio
        silu_values[i] = gate_activation(gate[i], activation);
    }

    const Vector<Real>& row = in.vector("row");
    if (row.empty()) throw InputError("input 'row' should not be empty");
    Value normed, mean;
    try {
        Vector<Real> centred = row;  // mistake mean_subtracted: LayerNorm's centring first
        Real row_mean(0);
        for (const Real& v : row) row_mean += v / Real(static_cast<long>(row.size()));
        if (in.mistake("mean_subtracted"))
            for (Real& v : centred) v -= row_mean;
        const Vector<Real> y = rms_norm<Real>(centred, Vector<Real>(row.size(), Real(1)), Real(0));
        Real sum(0);
        for (const Real& v : y) sum += v;
        normed = y;
        mean = sum / Real(static_cast<long>(y.size()));
    } catch (const UndefinedNorm&) {
        normed = mean = Undefined{};
    }
    return {
        {"sigmoid", sigmoid},
        {"silu", silu_values},
        // about these inputs: do their SiLU values stay within 0..1, as a pass ratio would?
        {"silu_is_pass_ratio", companion::boolean(std::all_of(silu_values.begin(), silu_values.end(), [](const Real& s) {
             return s >= 0 && s <= 1;
         }))},
        {"rms_norm", normed},
        {"rms_norm_mean", mean},
        // about this row: is its RMSNorm's mean zero (it is when the row sums to zero)?
        {"rms_norm_has_zero_mean",
         companion::boolean(std::holds_alternative<Real>(mean) && abs(std::get<Real>(mean)) < Real("1e-40"))},
    };
}

}  // namespace blockcheck
