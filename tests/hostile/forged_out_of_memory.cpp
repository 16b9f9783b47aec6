// Does not compile, and forges gcc's words for running out of memory, so that the compile looks
// stopped by the grader's limits. A known-good program compiles under the same limits, so this
// is the program's doing: a compile_error scoring 0, never a grader fault.
#error "virtual memory exhausted: Cannot allocate memory"
int main() {}
