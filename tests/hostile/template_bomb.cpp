// Compiles forever: 2^40 distinct instantiations (no memoisation, depth far below the
// -ftemplate-depth limit). Only the compiler's limits stop it.
template <int N, long M>
struct Bomb {
    static constexpr long value = Bomb<N - 1, 2 * M>::value + Bomb<N - 1, 2 * M + 1>::value;
};

template <long M>
struct Bomb<0, M> {
    static constexpr long value = 1;
};

int main() { return Bomb<40, 0>::value == 0; }
