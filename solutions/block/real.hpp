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
