// A small fuzzing driver of our own, so that g++ builds every target in CI's configuration and
// `./blockcheck test` can run each for a few seconds. It runs the seed corpus, then mutations of
// it (bit and byte flips, inserted and erased runs, splices of two inputs, tokens that parsers
// care about), from a fixed seed so that a run is repeatable. With clang, the same targets link
// against libFuzzer instead (tests/fuzz/run).
//
//   fuzz_<target> [--seed N] [--runs N] [--seconds S] [--max-len N] [--memory-mib N] CORPUS_DIR_OR_FILE...
//
// --memory-mib (default 2048) caps the address space, so that an input asking for a huge
// allocation fails the run with std::bad_alloc instead of exhausting a shared machine (not under
// AddressSanitizer, which reserves far more address space than it uses).
//
// On a crash the input being run is written to ./fuzz-crash-<target> before the signal is
// raised again; an uncaught exception ends the run the same way (through abort).
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

// The input being run, for the crash handler.
const std::string* current = nullptr;
char crash_file[256] = "fuzz-crash";

void on_crash(int signal) {
    if (current) {
        const int fd = ::open(crash_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            [[maybe_unused]] auto written = ::write(fd, current->data(), current->size());
            ::close(fd);
        }
        const char note[] = "fuzz: crashed; the input is in ";
        [[maybe_unused]] auto a = ::write(2, note, sizeof note - 1);
        [[maybe_unused]] auto b = ::write(2, crash_file, std::strlen(crash_file));
        [[maybe_unused]] auto c = ::write(2, "\n", 1);
    }
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

// splitmix64: the same sequence everywhere.
struct Random {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
};

// Pieces that reach deeper into number, list and JSON parsers than random bytes do.
const std::vector<std::string> tokens = {
    "0", "-1", "1e999", "-1e-999", "nan", "inf", "-0", "4294967296", "18446744073709551616", "9223372036854775807",
    "[]", "[[]]", "[1, 2]", "[[1, 2], [3]]", "\"", "{}", "[", "]", "{", "}", ",", ":", "=", "\n", "\r\n", "\xff",
    "\xe4\xb8\xad", "null", "true", "false", "undefined", "\"1.5\"", "0.5", "1e308", "\"max\": ", "\"min\": ",
    "\"length\": ", "\"multiple_of\": 0", "\"step\": ", "\"points\": ", "\"rows\": ", "\"cols\": ", "\"head_dim\": ",
    "\"query_heads\": ", "\"kv_heads\": ", "\"hidden_size\": ", "\"start_position\": ", "\"variants\": "};

std::string mutate(std::string input, const std::vector<std::string>& corpus, Random& random, std::size_t max_len) {
    const int steps = 1 + static_cast<int>(random.below(4));
    for (int step = 0; step < steps; ++step) {
        const std::size_t at = random.below(input.size() + 1);
        switch (random.below(6)) {
            case 0:  // flip a bit
                if (!input.empty()) input[random.below(input.size())] ^= static_cast<char>(1u << random.below(8));
                break;
            case 1:  // set a byte
                if (!input.empty()) input[random.below(input.size())] = static_cast<char>(random.below(256));
                break;
            case 2:  // insert a token
                input.insert(at, tokens[random.below(tokens.size())]);
                break;
            case 3:  // erase a run
                if (!input.empty()) input.erase(random.below(input.size()), 1 + random.below(16));
                break;
            case 4: {  // splice in part of another input
                const std::string& other = corpus[random.below(corpus.size())];
                if (other.empty()) break;
                const std::size_t from = random.below(other.size());
                input.insert(at, other.substr(from, 1 + random.below(other.size() - from)));
                break;
            }
            default:  // repeat a run (long numbers, deep nesting)
                if (!input.empty()) {
                    const std::size_t from = random.below(input.size());
                    const std::string run = input.substr(from, 1 + random.below(8));
                    for (std::size_t k = random.below(64); k > 0; --k) input.insert(from, run);
                }
        }
    }
    if (input.size() > max_len) input.resize(max_len);
    return input;
}

std::string read_all(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void run(const std::string& input) {
    current = &input;
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
    current = nullptr;
}

int usage(const char* self) {
    std::fprintf(stderr, "usage: %s [--seed N] [--runs N] [--seconds S] [--max-len N] [--memory-mib N] CORPUS...\n", self);
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::uint64_t seed = 1;
    long runs = 1000;
    double seconds = 0;  // 0: no time limit, only --runs
    std::size_t max_len = 4096;
    unsigned long memory_mib = 2048;
    std::vector<fs::path> sources;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--seed" && has_value) seed = std::strtoull(argv[++i], nullptr, 10);
        else if (arg == "--runs" && has_value) runs = std::strtol(argv[++i], nullptr, 10);
        else if (arg == "--seconds" && has_value) seconds = std::strtod(argv[++i], nullptr);
        else if (arg == "--max-len" && has_value) max_len = std::strtoul(argv[++i], nullptr, 10);
        else if (arg == "--memory-mib" && has_value) memory_mib = std::strtoul(argv[++i], nullptr, 10);
        else if (arg.starts_with("--")) return usage(argv[0]);
        else sources.emplace_back(arg);
    }
    if (sources.empty()) return usage(argv[0]);
#ifndef __SANITIZE_ADDRESS__
    const rlimit memory{memory_mib << 20, memory_mib << 20};
    ::setrlimit(RLIMIT_AS, &memory);
#endif
    std::snprintf(crash_file, sizeof crash_file, "fuzz-crash-%s", fs::path(argv[0]).filename().c_str());
    for (int signal : {SIGSEGV, SIGABRT, SIGFPE, SIGILL, SIGBUS}) std::signal(signal, on_crash);

    std::vector<std::string> corpus;
    for (const fs::path& source : sources) {
        if (fs::is_directory(source)) {
            std::vector<fs::path> files;
            for (const auto& entry : fs::directory_iterator(source))
                if (entry.is_regular_file()) files.push_back(entry.path());
            std::sort(files.begin(), files.end());  // the same order everywhere: the run is repeatable
            for (const fs::path& file : files) corpus.push_back(read_all(file));
        } else if (fs::is_regular_file(source)) {
            corpus.push_back(read_all(source));
        } else {
            std::fprintf(stderr, "fuzz: %s: no such file or folder\n", source.c_str());
            return 2;
        }
    }
    if (corpus.empty()) corpus.emplace_back();
    for (const std::string& input : corpus) run(input);

    Random random{seed};
    const auto start = std::chrono::steady_clock::now();
    long done = 0;
    for (; done < runs; ++done) {
        if (seconds > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) break;
        run(mutate(corpus[random.below(corpus.size())], corpus, random, max_len));
    }
    std::printf("fuzz: %zu seed inputs and %ld mutations (seed %llu) ran without a crash\n", corpus.size(), done,
                static_cast<unsigned long long>(seed));
    return 0;
}
