// Grading the numeric answer kinds: a number, an angle, a vector, a matrix (to the declared
// precision) and an integer (exactly). Internal to grading: answer_compare.cpp dispatches here.
#pragma once

#include "checker/exercise/answer_compare.hpp"

namespace blockcheck::answers {

// A number, angle, vector or matrix part; `expected` is a Real, Vector<Real> or Matrix<Real>.
PartResult grade_numbers(const AnswerSpec& spec, const ProgramLine& given, const Value& expected,
                         const AnswerCompareOptions& options);

// An integer part: an exact whole number, however it is written.
PartResult grade_integer(const AnswerSpec& spec, const ProgramLine& given, const Real& expected,
                         const AnswerCompareOptions& options);

// True when every number given is within the part's tolerance of `candidate` (finite, of a
// numeric kind), of the same shape; an integer part exactly.
bool numbers_within_tolerance(const AnswerSpec& spec, const Reading& given, const Value& candidate);

}  // namespace blockcheck::answers
