// The error model: small changes to one operation of a reference's recorded computation (the
// tape, solutions/tape.hpp), each replayed from that operation forward. A change is made at a
// site: every node of the tape that is the same operation on the same kind of operands feeding
// the same first answer (the same line of a program, run for every element), or every leaf of
// one input, or a counter: the whole numbers 0, s, 2s, ... feeding one kind of operation anywhere. Its id names its kind and its site, so the same change is made again on other inputs.
#pragma once

#include "solutions/exercise.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace blockcheck {

// The kinds of change, in the order a search tries them.
inline constexpr const char* tape_change_kinds[] = {
    "swapped",         // a / b for b / a, a - b for b - a
    "inverted",        // 1 / x for x
    "negated",         // -x for x
    "exponent_sign",   // a^(-b) for a^b
    "term_dropped",    // a for a + b (or a - b), b for a + b
    "term_moved_out",  // x_i + s taken as x_i, and s added to the answer instead: a shift on the output
    "factor_dropped",  // a for a * b, b for a * b, a for a / b
    "square_dropped",  // x for x * x
    "square_added",    // x * x for x
    "root_dropped",    // x for sqrt(x)
    "root_added",      // sqrt(x) for x
    "step_skipped",    // x for f(x): exp, log, sin, cos, a rounding, a sign
    "function_swapped",  // cos for sin, ceil for floor, and back
    "function_confused", // a known function of one number for its neighbour: SiLU and x tanh(x), sigmoid and tanh
    "off_by_one",      // an integer input, or a whole number, one too large or too small
    "truncated",       // a / b in integers: floor(a / b)
    "constant_swapped",  // 2 and 1, 1e9 and 2^30, 1e3 and 2^10, 10000 and 500000, 1e-5 and 1e-6
    "counted_from_one",  // a counter 0, s, 2s, ... feeding one kind of operation taken as s, 2s, 3s, ...
    "steps_reordered",   // f(a op b) taken as f(a) op b, and f(a) op b as f(a op b): two steps in the other order
    "operand_term_dropped",  // (a - m) * (a - m) as a * a: an operand's last term left out in this use only
};

// One change made on one case: what it is, in words a student reads (never an expected value),
// and the answers it gives.
struct TapeChange {
    std::string id;    // "tape:<kind>:<site hash>": the same change on any inputs
    std::string kind;  // one of tape_change_kinds
    std::string en, zh;
    std::vector<std::string> reaches;  // the answers it can change, in the exercise's order
    Values answers;
    std::vector<int> place;  // the node it is made at (its site's first) and that node's operands (-1: none)
};

// True when exercise `id`'s reference runs on the tape (taped_references()).
bool taped_reference(const std::string& id);

// Every single change of the tape of exercise `id` on `inputs` whose site feeds every answer of
// `must_reach`, at most `limit` of them (first the sites feeding no other answer, then the others;
// each in the order computed, kinds in the order above), its answers replayed; `order`: the exercise's answers in order (which answer a site first feeds).
// Empty for an exercise not on the tape or inputs its reference refuses.
std::vector<TapeChange> tape_changes(const std::string& id, const Values& inputs, const std::vector<std::string>& order,
                                     const std::vector<std::string>& must_reach, std::size_t limit);

// The answers of change `change_id` on these inputs; nullopt when there is no such site here.
std::optional<Values> tape_change_answers(const std::string& id, const Values& inputs, const std::vector<std::string>& order,
                                          const std::string& change_id);

// The tape's values replayed with no change: what the Real reference gives (the tape's own test).
Values taped_answers(const std::string& id, const Values& inputs);

}  // namespace blockcheck
