// The block's MPFR scalar types, and pi and angle conversion at every precision.
#pragma once

#include "base/decimal.hpp"

#include <boost/multiprecision/mpfr.hpp>

namespace blockcheck {

namespace mp = boost::multiprecision;

// The block's high-precision scalars, for its runs in verify, rerun, compare and forward: MPFR
// on the stack, with correctly rounded exp/sin/cos about 5x faster than cpp_bin_float's (see
// `blockcheck bench`). The protocol's portable reference, which the reference answers and the
// grader use, is Real (base/real.hpp). Named by their backend and digits: Mpfr50, Mpfr100.
// Expression templates are off so that `auto x = a + b;` is a number.
using Mpfr50 = mp::number<mp::mpfr_float_backend<50, mp::allocate_stack>, mp::et_off>;
using Mpfr100 = mp::number<mp::mpfr_float_backend<100, mp::allocate_stack>, mp::et_off>;

// exp(x) rounded to nearest at y's precision (at most 170 bits) by tables of powers of two and a
// short Taylor polynomial on three limbs (solutions/block/mpfr_exp.cpp): true when they decide the
// rounding (y is then the correctly rounded exp(x), mpfr_exp's bits); false (y untouched) for
// 0, NaN, infinities, |x| >= 2^20, and the rare x whose rounding they cannot decide.
bool exp_by_tables(mpfr_ptr y, mpfr_srcptr x);

}  // namespace blockcheck

namespace boost::multiprecision {

// exp of the 50-digit scalar: the bits of MPFR's mpfr_exp (correctly rounded), about twice as fast
// (solutions/block/mpfr_exp.cpp; a third of a 50-digit forward was mpfr_exp, docs/performance.md).
// Found by argument-dependent lookup before Boost.Multiprecision's generic exp, as Real's erf is
// (base/real.hpp), so the block's one generic softmax and SiLU take it.
blockcheck::Mpfr50 exp(const blockcheck::Mpfr50& a);

}  // namespace boost::multiprecision

namespace blockcheck {

// pi at T's precision.
template <class T>
T pi() {
    using std::acos;
    static const T value = acos(T(-1));
    return value;
}

// degrees -> radians, and back.
template <class T>
T radians(const T& degrees) {
    return degrees * pi<T>() / T(180);
}
template <class T>
T degrees(const T& radians) {
    return radians * T(180) / pi<T>();
}

}  // namespace blockcheck
