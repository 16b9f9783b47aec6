// The high-precision scalar types, and pi and angle conversion at every precision.
#pragma once

#include "base/decimal.hpp"

#include <boost/multiprecision/mpfr.hpp>

namespace blockcheck {

namespace mp = boost::multiprecision;

// The high-precision scalars. MPFR on the stack: correctly rounded exp/sin/cos and
// about 5x faster transcendental calls than cpp_bin_float (see `blockcheck bench`).
// Expression templates are off so that `auto x = a + b;` is a number.
using Real50 = mp::number<mp::mpfr_float_backend<50, mp::allocate_stack>, mp::et_off>;
using Real100 = mp::number<mp::mpfr_float_backend<100, mp::allocate_stack>, mp::et_off>;

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
