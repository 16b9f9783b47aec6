// Solved: the interview questions, as a student would write it.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long heads = input_integer("query_heads");
    double step = input_number("angle_degrees"), factor = input_number("factor");

    bool extremes = true;
    for (long h = 0; h < heads; ++h) {
        extremes = extremes && h / (heads / 1) == 0;      // one K/V head: all read head 0
        extremes = extremes && h / (heads / heads) == h;  // one K/V head each: head h reads h
    }
    double neighbour_before = 1 * step, neighbour_after = 1 / factor * step;

    answer("rope_rotates_v", false);
    answer("max_context_proves_ability", false);
    answer("gqa_extremes_are_mqa_and_mha", extremes);
    answer("interpolation_keeps_neighbour_angle", neighbour_before == neighbour_after);
    answer_choice("kv_cache_grows_with", "B");
    answer_choice("ntk_slows_most", "C");
}
