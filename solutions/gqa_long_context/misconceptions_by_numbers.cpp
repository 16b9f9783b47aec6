// Two misconceptions checked with numbers: SiLU is not a pass ratio in [0, 1], and RMSNorm's
// output does not have zero mean.
#include "solutions/gqa_long_context/references.hpp"
#include "solutions/block/ffn.hpp"
#include "solutions/block/norms.hpp"

namespace blockcheck {

Values misconceptions_by_numbers(const Inputs& in) {
    using std::exp;
    const Vector<Real>& gate = in.vector("gate_values");
    Vector<Real> sigmoid(gate.size()), silu_values(gate.size());
    for (std::size_t i = 0; i < gate.size(); ++i) {
        sigmoid[i] = Real(1) / (Real(1) + exp(-gate[i]));  // the gate's pass ratio
        silu_values[i] = silu(gate[i]);                      // x * sigmoid(x)
    }

    const Vector<Real>& row = in.vector("row");
    if (row.empty()) throw InputError("input 'row' should not be empty");
    Value normed, mean;
    try {
        const Vector<Real> y = rms_norm<Real>(row, Vector<Real>(row.size(), Real(1)), Real(0));
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
        {"silu_is_pass_ratio", companion::boolean(false)},
        {"rms_norm", normed},
        {"rms_norm_mean", mean},
        {"rms_norm_has_zero_mean", companion::boolean(false)},
    };
}

}  // namespace blockcheck
