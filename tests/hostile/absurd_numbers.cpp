// Answers every part of swiglu_ffn_2d with absurd numbers: exponents beyond any range, NaN and
// infinities, a 20000-digit integer, and a number with more digits than the reference carries.
// None may crash or hang the grader; none may be graded correct.
#include <cstdio>
#include <string>

int main() {
    const std::string huge(20000, '9');
    std::printf("gate = [1e999999999999, -1e-999999999999]\n");
    std::printf("up = [nan, -inf]\n");
    std::printf("silu = [%s, 0.%s]\n", huge.c_str(), huge.c_str());
    std::printf("swiglu_hidden = [infinity, 1e+2147483648]\n");
    std::printf("swiglu_ffn = [0.65529300000000000000000000000000000000000000000000000000000000000000001, -0.8068243e-99999]\n");
    return 0;
}
