// The protocol's scalar, Real: every number an exercise reads or answers, at 50 significant
// digits; the portable reference. The reference solutions compute their answers with it and the
// grader compares with it, in both editions alike. Header-only binary floats of 168 bits
// (Boost.Multiprecision's cpp_bin_float): + - * / and decimal conversion round correctly, and the
// student edition needs no MPFR. (The block's high-precision runs, for verify, rerun, compare and
// forward, use MPFR instead, about 5x faster in exp/sin/cos: Mpfr50 and Mpfr100,
// solutions/block/real.hpp.)
#pragma once

#include <boost/multiprecision/cpp_bin_float.hpp>

namespace blockcheck {

// Expression templates are off so that `auto x = a + b;` is a number.
using Real = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<50>, boost::multiprecision::et_off>;

}  // namespace blockcheck
