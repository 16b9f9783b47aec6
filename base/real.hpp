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

namespace boost::multiprecision {

// erf of the protocol's scalar, correctly rounded by MPFR's mpfr_erf (solutions/block/real.cpp;
// only the full edition, which links MPFR, calls it). Found by argument-dependent lookup before
// Boost.Multiprecision's generic erf, whose series at this precision reaches lgamma, polygamma and
// zeta: Boost computes their tables for Real before main, about 5 ms of every command
// (docs/performance.md, "Against mpmath").
blockcheck::Real erf(const blockcheck::Real& a);

}  // namespace boost::multiprecision
