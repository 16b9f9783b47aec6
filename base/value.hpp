// The exercise protocol's values, shared by the reference solutions and the grader: number,
// vector, matrix, boolean, undefined or choice, at the reference precision (50 digits, Real).
#pragma once

#include "base/decimal.hpp"
#include "base/real.hpp"
#include "base/tensor.hpp"

#include <map>
#include <string>
#include <variant>

namespace blockcheck {

struct Undefined {};        // the quantity has no value (e.g. RMSNorm of a zero row, eps 0)
struct Choice {             // a bare word such as B
    std::string word;
};

// One value of the protocol: number, vector, matrix, boolean, undefined or choice.
using Value = std::variant<Real, Vector<Real>, Matrix<Real>, bool, Undefined, Choice>;
using Values = std::map<std::string, Value>;

}  // namespace blockcheck
