// Two misconceptions checked with numbers: SiLU is not a pass ratio in [0, 1], and RMSNorm's
// output does not have zero mean.
#include "solutions/gqa_long_context/references.hpp"
#include "solutions/block/ffn.hpp"
#include "solutions/ch25/references.hpp"

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
    // RMSNorm with unit gains and epsilon 0, through the norm's slips (mean_subtracted, sum_not_mean,
    // root_omitted: ch25::rms_norm_unit); its mean from it (the student's own, when that step is
    // judged from it).
    Value normed = ch25::rms_norm_unit(in, row), mean = Undefined{};
    if (auto* y = std::get_if<Vector<Real>>(&normed)) {
        const Vector<Real> own = in.given_or("rms_norm", *y);
        Real sum(0);
        for (const Real& v : own) sum += v;
        mean = sum / Real(static_cast<long>(own.size()));
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
