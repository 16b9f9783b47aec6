// Exercise (companion): interview questions, true or false and two choices.
// `./blockcheck show interview_questions` lists the statements.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    [[maybe_unused]] long query_heads = input_integer("query_heads");
    [[maybe_unused]] double angle_degrees = input_number("angle_degrees");
    [[maybe_unused]] double factor = input_number("factor");

    // Two statements can be computed: GQA's extremes and interpolation's neighbour angle.

    // answer("rope_rotates_v", ...);                       // true or false
    // answer("max_context_proves_ability", ...);           // true or false
    // answer("gqa_extremes_are_mqa_and_mha", ...);         // true or false
    // answer("interpolation_keeps_neighbour_angle", ...);  // true or false
    // answer_choice("kv_cache_grows_with", "?");           // A, B or C
    // answer_choice("ntk_slows_most", "?");                // A, B or C
}
