// Spins forever on the CPU: stopped by the CPU limit (RLIMIT_CPU).
int main() {
    volatile unsigned long counter = 0;
    for (;;) counter = counter + 1;
}
