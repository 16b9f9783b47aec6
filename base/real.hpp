// The protocol's scalar: every number an exercise reads or answers, at 50 significant digits. The
// reference solutions compute their answers with it and the grader compares with it, in both
// editions alike. Header-only binary floats of 168 bits (Boost.Multiprecision's cpp_bin_float):
// + - * / and decimal conversion round correctly, and the student edition needs no MPFR.
// (The block's MPFR scalars for its high-precision runs are Real50 and Real100, solutions/block/real.hpp.)
#pragma once

#include <boost/multiprecision/cpp_bin_float.hpp>

namespace blockcheck {

// Expression templates are off so that `auto x = a + b;` is a number.
using Real = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<50>, boost::multiprecision::et_off>;

}  // namespace blockcheck
