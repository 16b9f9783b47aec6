// erf of the protocol's scalar through MPFR (declared in base/real.hpp).
#include "base/real.hpp"

#include <boost/multiprecision/cpp_int.hpp>
#include <limits>
#include <mpfr.h>
#include <string>

namespace {

using blockcheck::Real;
namespace mp = boost::multiprecision;

constexpr int real_bits = std::numeric_limits<Real>::digits;

// An MPFR number of Real's precision, freed with its scope.
struct MpfrOfReal {
    mpfr_t value;
    MpfrOfReal() { mpfr_init2(value, real_bits); }
    ~MpfrOfReal() { mpfr_clear(value); }
    MpfrOfReal(const MpfrOfReal&) = delete;
    MpfrOfReal& operator=(const MpfrOfReal&) = delete;
};

// a = m 2^(e - bits) with m an integer of at most `bits` bits: copied exactly.
void set_exactly(mpfr_t out, const Real& a) {
    if (a == 0) { mpfr_set_zero(out, a.backend().sign() ? -1 : 1); return; }
    int e = 0;
    const Real mantissa = mp::frexp(mp::abs(a), &e);
    const mp::cpp_int m = mp::cpp_int(mp::ldexp(mantissa, real_bits));
    mpz_t z;
    mpz_init_set_str(z, m.str(0, std::ios_base::hex).c_str(), 16);
    if (a < 0) mpz_neg(z, z);
    mpfr_set_z_2exp(out, z, e - real_bits, MPFR_RNDN);  // exact: m has real_bits bits
    mpz_clear(z);
}

// The MPFR number (of Real's precision) back as a Real, exactly.
Real get_exactly(const mpfr_t x) {
    if (mpfr_zero_p(x)) return Real(0);
    mpz_t z;
    mpz_init(z);
    const long e = mpfr_get_z_2exp(z, x);
    const bool negative = mpz_sgn(z) < 0;
    mpz_abs(z, z);
    std::string hex(mpz_sizeinbase(z, 16) + 2, '\0');
    mpz_get_str(hex.data(), 16, z);
    hex.resize(hex.find('\0'));
    mpz_clear(z);
    const Real magnitude = mp::ldexp(Real(mp::cpp_int("0x" + hex)), static_cast<int>(e));
    return negative ? -magnitude : magnitude;
}

}  // namespace

namespace boost::multiprecision {

// erf(a), rounded once to Real's precision (to nearest, as Real's own arithmetic).
blockcheck::Real erf(const blockcheck::Real& a) {
    if (mp::isnan(a)) return a;
    if (mp::isinf(a)) return Real(a > 0 ? 1 : -1);
    MpfrOfReal x, y;
    set_exactly(x.value, a);
    mpfr_erf(y.value, x.value, MPFR_RNDN);
    return get_exactly(y.value);
}

}  // namespace boost::multiprecision
