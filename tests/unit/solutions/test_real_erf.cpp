// erf of the protocol's scalar through MPFR (base/real.hpp, solutions/block/real.cpp): correctly
// rounded to Real's 168 bits, and no Boost.Math special-function tables computed before main.
#include "base/real.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using blockcheck::Real;

namespace {

Real erf_of(const Real& a) {
    using std::erf;
    return erf(a);  // as the block's GELU calls it (solutions/block/ffn.hpp)
}

}  // namespace

TEST_CASE("erf of Real is MPFR's, correctly rounded to Real's precision") {
    // mpmath at 400 bits rounded to 168: Boost.Math's generic series at this precision gave
    // ...597029295 and ...348660529 in the last digits.
    CHECK(erf_of(Real("0.1")).str(55) == "0.1124629160182848922032750717439683832216962991597025954");
    CHECK(erf_of(Real("-0.7")).str(55) == "-0.6778011938374184729756288092441513967162881743348687257");
    CHECK(erf_of(Real("1.5")).str(55) == "0.9661051464753107270669762616459478586814104792576368368");
    CHECK(erf_of(Real(0)) == 0);
    CHECK(erf_of(Real(12)) == 1);
    CHECK(erf_of(-std::numeric_limits<Real>::infinity()) == -1);
    CHECK(boost::multiprecision::isnan(erf_of(std::numeric_limits<Real>::quiet_NaN())));
}
