// A numerical analyst's report on one matrix of another implementation against the 50-digit
// reference: absolute, norm-wise and element-wise errors, where each is worst, non-finite
// elements, and a tolerance derived from the implementation's floating-point type.
#pragma once

#include "checker/block/tensor_files.hpp"
#include "solutions/block/block.hpp"
#include "solutions/block/real.hpp"

#include <optional>
#include <string>

namespace blockcheck {

// |given - reference| <= atol + rtol |reference|, element by element (numpy.allclose).
struct Tolerance {
    double rtol = 0, atol = 0;
    std::size_t depth = 0;      // the sums along the stage's path (0: given on the command line)
    double multiple = 0;        // rtol = multiple * eps * sqrt(depth); atol = rtol * max|reference|
};

// The longest chain of additions behind a --trace stage: sums of C (RMSNorm's mean), C (the
// projections), d (a score), L = cached + T (softmax and the weighted sum of values), q*d (the
// output projection), F (down); rotations and residual adds count 1 or 2.
std::size_t stage_depth(const std::string& stage, const BlockConfig<Mpfr50>& config, std::size_t keys);

// rtol = 4 eps sqrt(depth), atol = rtol max|reference|: a faithful implementation in `dtype`
// rounds each partial sum once, and such errors add up as a random walk.
Tolerance derived_tolerance(DType dtype, std::size_t depth, double max_reference);

// The machine epsilon 2^-52, 2^-23, 2^-7, 2^-10.
double epsilon(DType dtype);

struct ElementAt {
    std::size_t row = 0, col = 0;
    double given = 0, reference = 0, value = -1;  // value: the error figure at this element
};

struct StageErrors {
    std::string name;
    std::size_t rows = 0, cols = 0;
    Tolerance tolerance;
    double max_abs = 0, mean_abs = 0, max_reference = 0;
    double normwise = 0;   // max |err| / max |ref|
    double frobenius = 0;  // ||err||_F / ||ref||_F
    double max_rel = 0, mean_rel = 0;
    ElementAt worst_abs, worst_rel, worst_allowance;  // worst_allowance.value: |err| / (atol + rtol |ref|)
    std::size_t nonfinite = 0;
    std::optional<ElementAt> first_nonfinite;
    std::size_t outside = 0;
    bool within() const { return outside == 0 && nonfinite == 0; }
};

// Every figure for one stage; `tolerance` with depth set (or explicit rtol/atol).
StageErrors stage_errors(const std::string& name, const Matrix<Mpfr50>& given, const Matrix<Mpfr50>& reference,
                         const Tolerance& tolerance);

// Every stage `given` carries, in the reference's order, against the reference trace of the
// case; tolerances derived from `dtype` unless rtol / atol are given. `keys`: cached + T.
std::vector<StageErrors> compare_stages(const Trace<Mpfr50>& given, const Trace<Mpfr50>& reference,
                                        const BlockConfig<Mpfr50>& config, std::size_t keys, DType dtype,
                                        std::optional<double> rtol = {}, std::optional<double> atol = {});

// The first stage outside its tolerance (where the bug is), or nullptr.
const StageErrors* first_stage_outside(const std::vector<StageErrors>& stages);

}  // namespace blockcheck
