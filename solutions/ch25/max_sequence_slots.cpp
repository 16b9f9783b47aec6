// Exercise 25.6-6: a declared capacity is not a measured ability. No numbers: the answers
// are the facts the chapter argues (see the explanations in the exercise file).
#include "solutions/ch25/references.hpp"

namespace blockcheck {

template <class S>
ValuesOf<S> max_sequence_slots(const Inputs&) {
    return {
        {"proves_long_range_use", boolean_of<S>(false)},   // same weights, same training
        {"what_it_may_allow", choice_of<S>("C")},          // a longer input buffer, if supported
        {"what_it_does_not_prove", choice_of<S>("A")},     // correct use of far clues
        {"needed_test", choice_of<S>("B")},                // move paired clues, fix the rest, every distance
    };
}
BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(max_sequence_slots)

}  // namespace blockcheck
