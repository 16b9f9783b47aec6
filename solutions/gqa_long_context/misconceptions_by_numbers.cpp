// Two misconceptions checked with numbers: SiLU is not a pass ratio in [0, 1], and RMSNorm's
// output does not have zero mean.
#include "solutions/gqa_long_context/references.hpp"
#include "solutions/block/ffn.hpp"
#include "solutions/ch25/references.hpp"

#include <algorithm>

namespace blockcheck {

template <class S>
ValuesOf<S> misconceptions_by_numbers(const Inputs& in) {
    using std::abs;
    using std::exp;
    const Vector<S> gate = vector_of<S>(in, "gate_values");
    Vector<S> sigmoid(gate.size()), silu_values(gate.size());
    GateActivation activation = GateActivation::silu;  // x * sigmoid(x), through the activation's switch
    in.mistake_on([&](std::string_view id) { return make_activation_mistake(activation, id); });
    for (std::size_t i = 0; i < gate.size(); ++i) {
        sigmoid[i] = S(1) / (S(1) + exp(-gate[i]));  // the gate's pass ratio
        silu_values[i] = gate_activation(gate[i], activation);
    }

    const Vector<S> row = vector_of<S>(in, "row");
    if (row.empty()) throw InputError("input 'row' should not be empty");
    // RMSNorm with unit gains and epsilon 0, through the norm's slips (mean_subtracted, sum_not_mean,
    // root_omitted: ch25::rms_norm_unit); its mean from it (the student's own, when that step is
    // judged from it).
    ValueOf<S> normed = ch25::rms_norm_unit(in, row), mean = Undefined{};
    if (auto* y = std::get_if<Vector<S>>(&normed)) {
        const Vector<S> own = in.given_or("rms_norm", *y);
        S sum(0);
        for (const S& v : own) sum += v;
        mean = S(sum / S(static_cast<long>(own.size())));
    }
    // the true/false parts: plain comparisons of the values
    const Vector<Real> silu_real = real_values(silu_values);
    const auto* mean_value = std::get_if<S>(&mean);
    return {
        {"sigmoid", sigmoid},
        {"silu", silu_values},
        // about these inputs: do their SiLU values stay within 0..1, as a pass ratio would?
        {"silu_is_pass_ratio", boolean_of<S>(std::all_of(silu_real.begin(), silu_real.end(), [](const Real& s) {
             return s >= 0 && s <= 1;
         }))},
        {"rms_norm", normed},
        {"rms_norm_mean", mean},
        // about this row: is its RMSNorm's mean zero (it is when the row sums to zero)?
        {"rms_norm_has_zero_mean", boolean_of<S>(mean_value && abs(real_of(*mean_value)) < Real("1e-40"))},
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(misconceptions_by_numbers)

}  // namespace blockcheck
