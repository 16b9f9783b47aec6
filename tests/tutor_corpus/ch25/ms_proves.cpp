// Exercise 25.6-6: what a doubled max_sequence_slots shows.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    answer("proves_long_range_use", true);
    answer_choice("what_it_may_allow", "C");
    answer_choice("what_it_does_not_prove", "A");
    answer_choice("needed_test", "B");
}
