// Exercise 25.6-6: a declared capacity is not a measured ability. No numbers: the answers
// are the facts the chapter argues (see the explanations in the exercise file).
#include "solutions/ch25/references.hpp"

namespace blockcheck {

Values max_sequence_slots(const Inputs&) {
    return {
        {"proves_long_range_use", ch25::boolean(false)},   // same weights, same training
        {"what_it_may_allow", ch25::choice("C")},          // a longer input buffer, if supported
        {"what_it_does_not_prove", ch25::choice("A")},     // correct use of far clues
        {"needed_test", ch25::choice("B")},                // move paired clues, fix the rest, every distance
    };
}

}  // namespace blockcheck
