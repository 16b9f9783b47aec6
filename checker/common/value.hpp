// The exercise protocol's values, shared by the reference solutions and the grader: number,
// vector, matrix, boolean, undefined or choice, at the reference precision (50 digits).
#pragma once

#include "checker/common/decimal.hpp"
#include "checker/common/tensor.hpp"

#include <map>
#include <string>
#include <variant>

#ifdef BLOCKCHECK_STUDENT_EDITION
#include <boost/multiprecision/cpp_bin_float.hpp>
#else
#include "solutions/block/real.hpp"
#endif

namespace blockcheck {

#ifdef BLOCKCHECK_STUDENT_EDITION
// The student edition has no MPFR: header-only binary floats of the same 168 bits as Real50.
// Both round + - * / and decimal conversion correctly, so a comparison of the same decimal texts
// gives the same verdict in both editions.
using Real = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<50>, boost::multiprecision::et_off>;
#else
using Real = Real50;
#endif

struct Undefined {};        // the quantity has no value (e.g. RMSNorm of a zero row, eps 0)
struct Choice {             // a bare word such as B
    std::string word;
};

// One value of the protocol: number, vector, matrix, boolean, undefined or choice.
using Value = std::variant<Real, Vector<Real>, Matrix<Real>, bool, Undefined, Choice>;
using Values = std::map<std::string, Value>;

}  // namespace blockcheck
