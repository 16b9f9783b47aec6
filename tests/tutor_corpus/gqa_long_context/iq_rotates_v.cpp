// interview_questions: believes RoPE rotates V
#include "blockcheck.hpp"
using namespace bc;

int main() {
    answer("rope_rotates_v", true);
    answer("max_context_proves_ability", false);
    answer("gqa_extremes_are_mqa_and_mha", true);
    answer("interpolation_keeps_neighbour_angle", false);
    answer_choice("kv_cache_grows_with", "B");
    answer_choice("ntk_slows_most", "C");
}
