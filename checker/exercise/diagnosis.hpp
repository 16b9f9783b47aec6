// Mistake diagnosis: a wrong or inexact answer compared with the values classic mistakes
// produce, each computed by the reference through the block with exactly one thing changed
// (solutions/exercise.hpp), or derived from the expected value for the generic ones.
#pragma once

#include "checker/exercise/answer_compare.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace blockcheck {

// The message of a mistake id in both languages; it names the slip, never the expected value.
// Throws std::out_of_range for an id that has none.
const Text& mistake_message(const std::string& id);
// The generic mistakes every exercise is checked for, derived from the expected value (and
// degrees_as_radians, computed by the reference with degree inputs read as radians).
const std::vector<std::string>& generic_mistakes();
// True for the generic mistakes read off the expected value itself (a sign, a factor, an order,
// float precision, hard_coded): every other id is made by the reference (degrees_as_radians by
// reading the degree inputs as radians).
bool derived_from_expected(const std::string& id);
// True when `id` names a mistake with a message (what an exercise's "mistakes" may list).
bool known_mistake(const std::string& id);

// Names the classic mistake that explains a graded part, if one does: the exercise's own
// mistakes first (answers the reference gives with that mistake made, by id), then the generic ones
// (float_precision, degrees_as_radians, radians_as_degrees, sign_flipped, transposed,
// permuted, scaled). Only wrong parts, and correct ones that are not exact to double precision
// (float_precision), are diagnosed.
std::optional<Diagnosis> diagnose(const AnswerSpec& spec, const PartResult& part, const ProgramLine& given,
                                  const Value& expected, const std::map<std::string, Values>& mistakes);

}  // namespace blockcheck
