// Double-double numbers: a value hi + lo held in two doubles with |lo| <= ulp(hi) / 2, about 32
// significant digits (Dekker 1971; Hida, Li and Bailey's QD library). Fast enough for a real
// layer where 50-digit MPFR is not; the block runs on it as on any scalar (--precision dd).
//
// The error-free transformations below are exact under IEEE round-to-nearest double arithmetic
// without contraction (the build is ISO C++, so GCC's -ffp-contract=off holds): each returns
// (s, e) with s + e EXACTLY the mathematical result and s that result rounded to double.
#pragma once

#include "solutions/block/real.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace blockcheck {

struct DoublePair {
    double hi, lo;
};

// a + b = s + e, any finite a, b (Knuth's TwoSum, 6 flops).
inline DoublePair two_sum(double a, double b) {
    const double s = a + b, b_virtual = s - a;
    return {s, (a - (s - b_virtual)) + (b - b_virtual)};
}

// a + b = s + e when |a| >= |b| or a == 0 (Dekker's FastTwoSum, 3 flops).
inline DoublePair quick_two_sum(double a, double b) {
    const double s = a + b;
    return {s, b - (s - a)};
}

// a * b = p + e (TwoProd by one fused multiply-add).
inline DoublePair two_prod(double a, double b) {
    const double p = a * b;
    return {p, std::fma(a, b, -p)};
}

class DoubleDouble {
public:
    double hi = 0, lo = 0;

    constexpr DoubleDouble() = default;
    constexpr DoubleDouble(double x) : hi(x) {}
    constexpr DoubleDouble(int x) : hi(x) {}
    // Exact for |x| < 2^63: the part a double cannot hold goes to lo (positions stay below 2^40).
    DoubleDouble(long x) : hi(static_cast<double>(x)) {
        if (std::abs(hi) < 0x1p63) lo = static_cast<double>(x - static_cast<long>(hi));
    }
    explicit DoubleDouble(const Mpfr50& x) {
        hi = static_cast<double>(x);
        lo = std::isfinite(hi) ? static_cast<double>(x - Mpfr50(hi)) : 0.0;
    }
    // Decimal text, read at 50 digits and rounded once to the nearest double-double.
    explicit DoubleDouble(const std::string& text) : DoubleDouble(Mpfr50(text)) {}

    // (hi, lo) renormalised so that |lo| <= ulp(hi) / 2; requires |hi| >= |lo|.
    static DoubleDouble from_sum(DoublePair p) {
        const DoublePair n = quick_two_sum(p.hi, p.lo);
        DoubleDouble x;
        x.hi = n.hi;
        x.lo = std::isfinite(n.hi) ? n.lo : 0.0;
        return x;
    }

    explicit operator double() const { return hi; }
    explicit operator Mpfr50() const;  // exact
    explicit operator long() const { return static_cast<long>(hi) + static_cast<long>(lo); }

    // `significant` digits (31 when 0) as decimal text, through the exact 50-digit value.
    std::string str(int significant = 0) const;

    DoubleDouble operator-() const { return from_parts(-hi, -lo); }

    // Accurate addition (QD's ieee_add): error <= 2 u^2 |a + b|, u = 2^-53.
    friend DoubleDouble operator+(const DoubleDouble& a, const DoubleDouble& b) {
        DoublePair s = two_sum(a.hi, b.hi);
        if (!std::isfinite(s.hi)) return DoubleDouble(s.hi);
        const DoublePair t = two_sum(a.lo, b.lo);
        s.lo += t.hi;
        s = quick_two_sum(s.hi, s.lo);
        s.lo += t.lo;
        return from_sum(s);
    }
    friend DoubleDouble operator+(const DoubleDouble& a, double b) {
        DoublePair s = two_sum(a.hi, b);
        if (!std::isfinite(s.hi)) return DoubleDouble(s.hi);
        s.lo += a.lo;
        return from_sum(s);
    }
    friend DoubleDouble operator+(double a, const DoubleDouble& b) { return b + a; }
    friend DoubleDouble operator-(const DoubleDouble& a, const DoubleDouble& b) { return a + (-b); }
    friend DoubleDouble operator-(const DoubleDouble& a, double b) { return a + (-b); }
    friend DoubleDouble operator-(double a, const DoubleDouble& b) { return (-b) + a; }

    // (a.hi + a.lo)(b.hi + b.lo) with a.lo b.lo dropped (below u^2 of the product).
    friend DoubleDouble operator*(const DoubleDouble& a, const DoubleDouble& b) {
        DoublePair p = two_prod(a.hi, b.hi);
        if (!std::isfinite(p.hi)) return DoubleDouble(p.hi);
        p.lo += a.hi * b.lo + a.lo * b.hi;
        return from_sum(p);
    }
    friend DoubleDouble operator*(const DoubleDouble& a, double b) {
        DoublePair p = two_prod(a.hi, b);
        if (!std::isfinite(p.hi)) return DoubleDouble(p.hi);
        p.lo += a.lo * b;
        return from_sum(p);
    }
    friend DoubleDouble operator*(double a, const DoubleDouble& b) { return b * a; }

    // Long division: three quotient digits q1 + q2 + q3, each from the remainder so far.
    friend DoubleDouble operator/(const DoubleDouble& a, const DoubleDouble& b) {
        const double q1 = a.hi / b.hi;
        if (!std::isfinite(q1) || !std::isfinite(b.hi) || q1 == 0) return DoubleDouble(q1);
        DoubleDouble r = a - b * q1;
        const double q2 = r.hi / b.hi;
        r = r - b * q2;
        const double q3 = r.hi / b.hi;
        return from_sum(quick_two_sum(q1, q2)) + q3;
    }

    DoubleDouble& operator+=(const DoubleDouble& b) { return *this = *this + b; }
    DoubleDouble& operator-=(const DoubleDouble& b) { return *this = *this - b; }
    DoubleDouble& operator*=(const DoubleDouble& b) { return *this = *this * b; }
    DoubleDouble& operator/=(const DoubleDouble& b) { return *this = *this / b; }

    friend bool operator==(const DoubleDouble& a, const DoubleDouble& b) { return a.hi == b.hi && a.lo == b.lo; }
    friend bool operator<(const DoubleDouble& a, const DoubleDouble& b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }
    friend bool operator>(const DoubleDouble& a, const DoubleDouble& b) { return b < a; }
    friend bool operator<=(const DoubleDouble& a, const DoubleDouble& b) { return !(b < a); }
    friend bool operator>=(const DoubleDouble& a, const DoubleDouble& b) { return !(a < b); }

private:
    static DoubleDouble from_parts(double h, double l) {
        DoubleDouble x;
        x.hi = h, x.lo = l;
        return x;
    }
};

}  // namespace blockcheck

template <>
struct std::numeric_limits<blockcheck::DoubleDouble> {
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = true;
    static constexpr bool is_integer = false;
    static constexpr bool is_exact = false;
    static constexpr bool is_bounded = true;
    static constexpr bool has_signaling_NaN = false;
    static constexpr int min_exponent = -1021;
    static constexpr int max_exponent = 1024;
    static constexpr int min_exponent10 = -307;
    static constexpr int max_exponent10 = 308;
    static constexpr bool has_infinity = true;
    static constexpr bool has_quiet_NaN = true;
    static constexpr int digits = 106;
    static constexpr int digits10 = 31;
    static constexpr int max_digits10 = 33;
    static constexpr int radix = 2;
    static blockcheck::DoubleDouble epsilon() { return blockcheck::DoubleDouble(0x1p-104); }
    static blockcheck::DoubleDouble infinity() { return blockcheck::DoubleDouble(HUGE_VAL); }
    static blockcheck::DoubleDouble quiet_NaN() { return blockcheck::DoubleDouble(std::numeric_limits<double>::quiet_NaN()); }
    static blockcheck::DoubleDouble max() { return blockcheck::DoubleDouble(std::numeric_limits<double>::max()); }
    static blockcheck::DoubleDouble lowest() { return blockcheck::DoubleDouble(std::numeric_limits<double>::lowest()); }
};

namespace blockcheck {

inline DoubleDouble::operator Mpfr50() const { return Mpfr50(hi) + Mpfr50(lo); }

inline std::string DoubleDouble::str(int significant) const {
    return static_cast<Mpfr50>(*this).str(significant > 0 ? significant : 31);
}

// The digits a double-double guarantees for one rounding: 2^-104 relative is 31.3 digits.
constexpr int double_double_digits = 31;

// Constants rounded once from their 50-digit values.
inline const DoubleDouble& dd_ln2() {
    static const DoubleDouble value(log(Mpfr50(2)));
    return value;
}
inline const DoubleDouble& dd_pi() {
    static const DoubleDouble value(acos(Mpfr50(-1)));
    return value;
}
template <>
inline DoubleDouble pi<DoubleDouble>() {
    return dd_pi();
}

// 1/n for the Taylor series (n < 1024), rounded once from 50 digits: a product where a division was.
inline const DoubleDouble& dd_reciprocal(int n) {
    static const std::vector<DoubleDouble> table = [] {
        std::vector<DoubleDouble> t(1024);
        for (int k = 1; k < 1024; ++k) t[k] = DoubleDouble(Mpfr50(1) / Mpfr50(k));
        return t;
    }();
    return table.at(static_cast<std::size_t>(n));
}

// 2^k x, exactly.
inline DoubleDouble ldexp(const DoubleDouble& x, int k) {
    DoubleDouble y;
    y.hi = std::ldexp(x.hi, k), y.lo = std::ldexp(x.lo, k);
    return y;
}

inline DoubleDouble abs(const DoubleDouble& x) { return x.hi < 0 ? -x : x; }
inline bool isfinite(const DoubleDouble& x) { return std::isfinite(x.hi); }
inline bool isnan(const DoubleDouble& x) { return std::isnan(x.hi); }

inline DoubleDouble floor(const DoubleDouble& x) {
    const double h = std::floor(x.hi);
    return h == x.hi ? DoubleDouble::from_sum(quick_two_sum(h, std::floor(x.lo))) : DoubleDouble(h);
}
inline DoubleDouble ceil(const DoubleDouble& x) { return -floor(-x); }

// sqrt(a) = a x + (a - (a x)^2) x / 2 with x ~ 1/sqrt(a.hi): one Newton step doubles the digits.
inline DoubleDouble sqrt(const DoubleDouble& a) {
    if (a.hi <= 0) return DoubleDouble(a.hi == 0 ? 0.0 : std::numeric_limits<double>::quiet_NaN());
    const double x = 1.0 / std::sqrt(a.hi), ax = a.hi * x;
    const DoublePair square = two_prod(ax, ax);
    return DoubleDouble::from_sum(two_sum(ax, (a - DoubleDouble::from_sum(square)).hi * (x * 0.5)));
}

// e^a = 2^k e^r, a = k ln 2 + r, |r| <= ln 2 / 2; e^(r/512) - 1 by its Taylor series to 2^-106,
// then squared nine times as e^(2s) - 1 = 2 (e^s - 1) + (e^s - 1)^2.
inline DoubleDouble exp(const DoubleDouble& a) {
    if (a.hi > 709.8) return DoubleDouble(std::numeric_limits<double>::infinity());
    if (a.hi < -745.2) return DoubleDouble(0.0);
    if (std::isnan(a.hi)) return a;
    const double k = std::nearbyint(a.hi / dd_ln2().hi);
    const DoubleDouble r = ldexp(a - dd_ln2() * k, -9);
    DoubleDouble term = r, sum = r;
    for (int n = 2; n < 30 && std::abs(term.hi) > 1e-34 * std::abs(sum.hi); ++n) {
        term = term * r * dd_reciprocal(n);
        sum += term;
    }
    for (int i = 0; i < 9; ++i) sum = ldexp(sum, 1) + sum * sum;
    return ldexp(sum + 1.0, static_cast<int>(k));
}

// ln a by one Newton step on e^x = a from the double logarithm: x + a e^-x - 1.
inline DoubleDouble log(const DoubleDouble& a) {
    if (a.hi <= 0) return DoubleDouble(a.hi == 0 ? -HUGE_VAL : std::numeric_limits<double>::quiet_NaN());
    const DoubleDouble x(std::log(a.hi));
    return x + a * exp(-x) - 1.0;
}


// sin r and cos r for |r| <= pi/4 by their Taylor series to 2^-106.
inline void sin_cos_reduced(const DoubleDouble& r, DoubleDouble& sin_r, DoubleDouble& cos_r) {
    const DoubleDouble r2 = r * r;
    DoubleDouble term = r;
    sin_r = r;
    for (int n = 3; std::abs(term.hi) > 1e-35; n += 2) sin_r += (term = -term * r2 * dd_reciprocal((n - 1) * n));
    term = DoubleDouble(1.0);
    cos_r = term;
    for (int n = 2; std::abs(term.hi) > 1e-35; n += 2) cos_r += (term = -term * r2 * dd_reciprocal((n - 1) * n));
}

// a = k pi/2 + r, |r| <= pi/4; the quadrant k mod 4 picks +-sin r or +-cos r. The absolute error
// grows with |a| as 2^-105 |a| (pi/2 is carried to 32 digits).
inline void sin_cos(const DoubleDouble& a, DoubleDouble& s, DoubleDouble& c) {
    const DoubleDouble half_pi = ldexp(dd_pi(), -1);
    const double k = std::nearbyint(a.hi / half_pi.hi);
    DoubleDouble sr, cr;
    sin_cos_reduced(a - half_pi * DoubleDouble(static_cast<long>(k)), sr, cr);
    switch (static_cast<long>(std::fmod(k, 4.0) + 4) % 4) {
        case 0: s = sr, c = cr; break;
        case 1: s = cr, c = -sr; break;
        case 2: s = -sr, c = -cr; break;
        default: s = -cr, c = sr; break;
    }
}
inline DoubleDouble sin(const DoubleDouble& a) {
    DoubleDouble s, c;
    sin_cos(a, s, c);
    return s;
}
inline DoubleDouble cos(const DoubleDouble& a) {
    DoubleDouble s, c;
    sin_cos(a, s, c);
    return c;
}

// tanh a = sign(a) (1 - 2 / (e^(2|a|) + 1)): absolute error about 2^-105 (what GELU's tanh form
// and a soft cap, both adding it to or scaling it by O(1), need); +-1 beyond |a| = 40, where
// 1 - tanh is below 2^-114.
inline DoubleDouble tanh(const DoubleDouble& a) {
    if (std::isnan(a.hi)) return a;
    const DoubleDouble magnitude = abs(a).hi > 40 ? DoubleDouble(1.0) : 1.0 - 2.0 / (exp(ldexp(abs(a), 1)) + 1.0);
    return a.hi < 0 ? -magnitude : magnitude;
}

// The rarely used functions through 50 digits, rounded once: GELU's erf, the teaching plans'
// acos, and pow for RoPE's frequencies (exp(y ln x) in double-double would lose |y ln x| ulps).
inline DoubleDouble erf(const DoubleDouble& a) { return DoubleDouble(erf(static_cast<Mpfr50>(a))); }
inline DoubleDouble pow(const DoubleDouble& base, const DoubleDouble& exponent) {
    return DoubleDouble(pow(static_cast<Mpfr50>(base), static_cast<Mpfr50>(exponent)));
}
inline DoubleDouble acos(const DoubleDouble& a) { return DoubleDouble(acos(static_cast<Mpfr50>(a))); }

}  // namespace blockcheck
