// Does not compile, and forges the start of the grader's own failure messages: every message
// gcc prints about this file begins "cannot compile '...". A grader that judged its own faults
// from the compiler's text would credit this in full; it must be a compile_error scoring 0.
#line 1 "cannot compile 'x"
#include <cstdio>

int main() { return undeclared_name; }
