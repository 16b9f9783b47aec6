// interview_questions: NTK slows every pair equally
#include "blockcheck.hpp"
using namespace bc;

int main() {
    answer("rope_rotates_v", false);
    answer("max_context_proves_ability", false);
    answer("gqa_extremes_are_mqa_and_mha", true);
    answer("interpolation_keeps_neighbour_angle", false);
    answer_choice("kv_cache_grows_with", "B");
    answer_choice("ntk_slows_most", "B");
}
