// Exercise 25.6-6: what doubling max_sequence_slots (same training, same weights) can show.
// No inputs. `./blockcheck show max_sequence_slots` lists the statements and the choices.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    // Keep apart what a configuration declares and what trained weights have learned.

    // answer("proves_long_range_use", ...);           // true or false
    // answer_choice("what_it_may_allow", "?");        // A, B or C
    // answer_choice("what_it_does_not_prove", "?");   // A, B or C
    // answer_choice("needed_test", "?");              // A, B or C
}
