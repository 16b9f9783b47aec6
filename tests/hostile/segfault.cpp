// Writes through a null pointer: SIGSEGV. Both the pointer and the store are volatile, so the
// optimiser can neither prove the pointer null nor drop the write.
int main() {
    volatile int* volatile pointer = nullptr;
    *pointer = 42;
    return 0;
}
