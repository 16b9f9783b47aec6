// The pieces every answer message is made of, shared by the graders of numbers
// (answer_numbers.cpp) and of the other kinds (answer_compare.cpp). Internal to grading.
#pragma once

#include "checker/exercise/answer_compare.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace blockcheck::answers {

// An answer token as a message quotes it: `0.5`, cut to a few dozen bytes and made printable.
std::string backticked(std::string_view text);

// An error as the messages print it: 1.3e-03.
std::string sci(const Real& x);

// "6 decimal places" / "6 位小数".
Text places_text(int n);

// The two texts one after the other, in each language.
Text join(const Text& a, const Text& b);

// "; expected 0.848528137424" when revealing, nothing otherwise.
Text reveal_text(const Value& expected, const AnswerCompareOptions& options);

// What a value looks like, for shape messages: what was read with its counts ("a vector of 3
// elements", "a 2x2 matrix"); what was expected without them ("a vector").
Text shape_of(const Reading& given);
Text shape_of(const Value& expected);

// A number that is no finite value, named as such: "`nan` (NaN, not a number: what 0/0 gives)",
// "`inf` (infinity: a division by zero or an overflow)".
Text non_finite_named(const NumberText& number);
// The first number of what was read that is nan or inf; nullptr when there is none.
const NumberText* first_non_finite(const Reading& given);

// "wrong shape: expected a number, got a vector of 2 elements"; never the count asked for.
Text shape_mismatch(const Value& expected, const Reading& given);

// A part's result: its verdict and message, the points a verdict earns, the line it came from.
PartResult part_result(const AnswerSpec& spec, const ProgramLine* given, Verdict verdict, Text message);

// |error| / |expected|; nullopt when the expected value is zero.
std::optional<double> relative(const Real& error, const Real& expected);

}  // namespace blockcheck::answers
