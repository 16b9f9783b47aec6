// A numerical analyst's report on one matrix of another implementation against the 50-digit
// reference: absolute, norm-wise and element-wise errors, where each is worst, non-finite
// elements, and a tolerance derived from the implementation's floating-point type.
#pragma once

#include "checker/block/tensor_files.hpp"
#include "solutions/block/block.hpp"
#include "solutions/block/real.hpp"
#include "base/text.hpp"

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

// A faithful run: the reference's own block computed in the port's type (float32 or float64
// arithmetic, every value of the case or folder rounded to it), its stages at 50 digits. Its
// norm-wise error is what rounding in that type gives on this computation. A stage more than
// faithful_multiple times that (and at least faithful_multiple eps) off is beyond rounding,
// whatever the element-wise tolerance allows.
inline constexpr double faithful_multiple = 10;

// The significant decimal digits `given` shares with `reference`: -log10(|err| / |ref|), capped
// at 50 (exact); 0 when the error is as large as the reference.
double digits_agreed(double abs_error, double reference);

// |err| in units in the last place of `reference` rounded to `dtype` (its spacing there).
double ulps(double abs_error, double reference, DType dtype);

// One row of a stage (one token, at one position): its worst error and whether it is outside.
struct RowErrors {
    double normwise = 0;         // max |err| over the row / max |ref| over the stage
    double worst_ulps = 0;       // the row's largest error in ulps of the dtype
    double fewest_digits = 50;   // the row's smallest digits_agreed
    std::size_t outside = 0;     // elements beyond the element-wise tolerance
    bool beyond_faithful = false;  // normwise beyond the faithful limit
    bool within() const { return outside == 0 && !beyond_faithful; }
};

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
    double faithful = -1;           // the faithful run's norm-wise error here (-1: none was run)
    double faithful_limit = 0;      // faithful_multiple * max(faithful, eps): beyond it is not rounding
    bool beyond_faithful = false;   // normwise > faithful_limit
    double worst_ulps = 0, fewest_digits = 50;  // over the stage's finite elements
    std::vector<RowErrors> row_errors;          // one a row
    bool within() const { return outside == 0 && nonfinite == 0 && !beyond_faithful; }
};

// Every figure for one stage; `tolerance` with depth set (or explicit rtol/atol).
StageErrors stage_errors(const std::string& name, const Matrix<Mpfr50>& given, const Matrix<Mpfr50>& reference,
                         const Tolerance& tolerance, DType dtype = DType::float64);

// Holds `s` to a faithful run's error at the same stage (its normwise error `faithful`).
void judge_against_faithful(StageErrors& s, double faithful, DType dtype);

// Every stage `given` carries, in the reference's order, against the reference trace of the
// case; tolerances derived from `dtype` unless rtol / atol are given. `keys`: cached + T. With a
// faithful run (and no rtol / atol), each stage it carries is also held to it.
std::vector<StageErrors> compare_stages(const Trace<Mpfr50>& given, const Trace<Mpfr50>& reference,
                                        const BlockConfig<Mpfr50>& config, std::size_t keys, DType dtype,
                                        std::optional<double> rtol = {}, std::optional<double> atol = {},
                                        const Trace<Mpfr50>* faithful = nullptr);

// The first stage outside its tolerance (where the bug is), or nullptr.
const StageErrors* first_stage_outside(const std::vector<StageErrors>& stages);

// "output[2][0]"
std::string element_name(const StageErrors& s, const ElementAt& e);

// compare's report in words (detail/stage_report.cpp): the output's errors, per element too, and
// its verdict with what a faithful run gives (`first_outside`: a stage before it that fails the run);
// each row's error at its position, which are outside and which within, and the hint a right row
// at position 0 gives; every stage's error, where the error first jumps.
void print_output_report(const StageErrors& output, const StageErrors* first_outside, DType dtype, Lang lang);
void print_rows(const StageErrors& output, const std::vector<long>& positions, DType dtype, Lang lang);
void print_stages(const std::vector<StageErrors>& stages, DType dtype, Lang lang);

}  // namespace blockcheck
