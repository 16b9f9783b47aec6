// A student who printed the book's numbers for example 25.3: right on the book's inputs, wrong on
// any variant. Used by the e2e scripts as the hard-coded submission.
#include <cstdio>
int main() {
    std::puts("gate = [1.000000, -1.000000]");
    std::puts("up = [2.000000, 3.000000]");
    std::puts("silu = [0.731059, -0.268941]");
    std::puts("swiglu_hidden = [1.462117, -0.806824]");
    std::puts("swiglu_ffn = [0.655293, -0.806824]");
}
