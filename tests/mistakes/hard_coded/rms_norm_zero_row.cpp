// A student who prints the book's numbers instead of computing them.
// expect: rms_norm_zero_row rms_norm hard_coded
// inputs: book
#include "blockcheck.hpp"
using namespace bc;

int main() {
    answer("mean_square", 2.0);
    answer("root_mean_square", 1.4142135623730951);
    answer("rms_norm", std::vector<double>{0.0, 1.4142135623730951});
    undefined("zero_row_rms_norm");
    answer_choice("why_root_of_mean", "B");
}
