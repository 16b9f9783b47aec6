// `blockcheck bench`: the block's forward in double and at 50 digits side by side, how close
// the 50-digit path is to its own floor, and what each big-number backend costs per operation.
#include "bench/bench.hpp"
#include "bench/grading_bench.hpp"
#include "checker/block/block_case.hpp"
#include "checker/common/cli.hpp"
#include "bench/real_layer_bench.hpp"

#include "base/real.hpp"
#include <fmt/format.h>

#include <chrono>
#include <cmath>

namespace blockcheck {
namespace {

using Clock = std::chrono::steady_clock;

// Seconds per call of f, repeated until at least `budget` seconds have passed.
template <class F>
double seconds_per_call(F&& f, double budget = 0.2) {
    int calls = 0;
    const auto start = Clock::now();
    double elapsed = 0;
    do {
        f();
        ++calls;
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < budget);
    return elapsed / calls;
}

// T input rows of the case's width: multiples of 1/8 in [-1, 1], the same for every precision.
template <class T>
Matrix<T> bench_input(std::size_t rows, std::size_t cols) {
    Matrix<T> x(rows, cols);
    std::uint64_t state = 88172645463325252ull;
    for (T& v : x.values) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;  // xorshift64
        v = T(static_cast<long>(state % 17) - 8) / T(8);
    }
    return x;
}

// The work a forward over T positions cannot avoid.
struct ForwardWork {
    double multiply_adds, exps, sin_cos_pairs;
};

ForwardWork forward_work(const BlockConfig<double>& c, std::size_t t) {
    const double C = double(c.hidden_size), F = double(c.ffn_hidden_size), d = double(c.head_dim);
    const double Hq = double(c.query_heads), Hkv = double(c.kv_heads), T = double(t);
    const double projections = T * (C * Hq * d + 2 * C * Hkv * d + Hq * d * C + 3 * C * F);
    const double visible_pairs = Hq * T * (T + 1) / 2;  // causal (query, key) pairs over all heads
    return {projections + 2 * visible_pairs * d, visible_pairs + T * F, T * d / 2};
}

// Time of exactly that work done alone on T values: the 50-digit path's floor.
template <class T>
double floor_seconds(const ForwardWork& work) {
    using std::cos;
    using std::exp;
    using std::sin;
    const std::size_t n = 4096;
    Vector<T> a(n), b(n);
    for (std::size_t i = 0; i < n; ++i) a[i] = T(long(i % 13) - 6) / T(7), b[i] = T(long(i % 11) - 5) / T(9);
    T sink(0);
    const double mac = seconds_per_call([&] {
                           T s(0);
                           for (std::size_t i = 0; i < n; ++i) s += a[i] * b[i];
                           sink += s;
                       }) / double(n);
    const std::size_t m = 256;
    const double ex = seconds_per_call([&] {
                          for (std::size_t i = 0; i < m; ++i) sink += exp(a[i]);
                      }) / double(m);
    const double sc = seconds_per_call([&] {
                          for (std::size_t i = 0; i < m; ++i) sink += sin(a[i]) + cos(a[i]);
                      }) / double(m);
    if (sink == T(12345)) fmt::print(" ");  // keep the work observable
    return work.multiply_adds * mac + work.exps * ex + work.sin_cos_pairs * sc;
}

template <class T>
double forward_seconds(const BlockCase<T>& bc, std::size_t rows) {
    const Matrix<T> x = bench_input<T>(rows, bc.config.hidden_size);
    return seconds_per_call([&] { block_forward(bc.config, bc.weights, x); }, 0.3);
}

template <class T>
std::array<double, 3> per_operation() {
    const double mac = floor_seconds<T>({1, 0, 0}), ex = floor_seconds<T>({0, 1, 0}), sc = floor_seconds<T>({0, 0, 1});
    return {mac, ex, sc};
}

int bench(const std::filesystem::path& root, bool as_json, Lang lang) {
    const auto case_file = (root / "data/cases/modern-small.json").string();
    const auto json = read_json_exact(case_file);
    const auto bc_double = read_block_case<double>(json, case_file);
    const auto bc_50 = read_block_case<Mpfr50>(json, case_file);
    nlohmann::ordered_json report;
    if (!as_json) {
        fmt::print("{}\n", tr(lang, "forward of the modern configuration (C=12, 3 heads x 4, F=32), per call",
                              "现代配置（C=12，3 头 x 4，F=32）的一次前向计算"));
        fmt::print("  {:>5}  {:>11}  {:>11}  {:>8}  {:>11}  {:>13}\n", "T", "double", "50 digits", "ratio",
                   "50d floor", "50d / floor");
    }
    for (std::size_t t : {16, 64, 256}) {
        const double d = forward_seconds(bc_double, t), big = forward_seconds(bc_50, t);
        const double floor = floor_seconds<Mpfr50>(forward_work(bc_double.config, t));
        if (as_json)
            report["forward"].push_back({{"T", t}, {"double_ms", d * 1e3}, {"real50_ms", big * 1e3},
                                         {"ratio", big / d}, {"real50_floor_ms", floor * 1e3},
                                         {"real50_over_floor", big / floor}});
        else
            fmt::print("  {:>5}  {:>8.3f} ms  {:>8.2f} ms  {:>7.0f}x  {:>8.2f} ms  {:>12.2f}x\n", t, d * 1e3, big * 1e3,
                       big / d, floor * 1e3, big / floor);
    }
    const auto mpfr = per_operation<Mpfr50>(), cpp = per_operation<Real>(), dbl = per_operation<double>();
    if (as_json) {
        auto row = [](const std::array<double, 3>& r) {
            return nlohmann::ordered_json{{"multiply_add_ns", r[0] * 1e9}, {"exp_ns", r[1] * 1e9}, {"sin_cos_ns", r[2] * 1e9}};
        };
        report["per_operation"] = {{"double", row(dbl)}, {"mpfr_50", row(mpfr)}, {"cpp_bin_float_50", row(cpp)}};
        fmt::print("{}\n", report.dump(2));
        return 0;
    }
    fmt::print("\n{}\n", tr(lang, "50-digit backends, per operation (the choice is MPFR: see Mpfr50)",
                            "50 位后端的单次运算耗时（选用 MPFR，见 Mpfr50）"));
    fmt::print("  {:<18}{:>14}{:>12}{:>14}\n", "", "multiply-add", "exp", "sin + cos");
    for (auto& [name, r] : {std::pair{"double", dbl}, std::pair{"MPFR 50", mpfr}, std::pair{"cpp_bin_float 50", cpp}})
        fmt::print("  {:<18}{:>11.1f} ns{:>9.1f} ns{:>11.1f} ns\n", name, r[0] * 1e9, r[1] * 1e9, r[2] * 1e9);
    fmt::print("  {:<18}{:>13.1f}x{:>11.1f}x{:>13.1f}x\n", "cpp_bin / MPFR", cpp[0] / mpfr[0], cpp[1] / mpfr[1],
               cpp[2] / mpfr[2]);
    return 0;
}

}  // namespace

void add_bench_command(CLI::App& app, Context& context) {
    auto as_json = std::make_shared<bool>(false);
    auto grading = std::make_shared<std::size_t>(200);
    CLI::App* cmd = app.add_subcommand("bench", "print the benchmark figures (ratios side by side in one run)");
    cmd->add_flag("--json", *as_json, "print the figures as JSON");
    CLI::Option* grading_option =
        cmd->add_option("--grading", *grading,
                        "instead: batch grading of N synthetic submissions (default 200), cold without and with the tutor, then unchanged, with 2 jobs")
            ->expected(0, 1);
    auto real = std::make_shared<RealLayerBenchOptions>();
    CLI::Option* real_option = cmd->add_option("--real-layer", real->model,
                                               "instead: one layer of a checkpoint folder, dd against double and "
                                               "(on row 0) 50 digits: load, time per stage, peak memory");
    cmd->add_option("--layer", real->layer, "the layer of --real-layer (default 0)")->needs(real_option);
    cmd->add_option("--input", real->input, "hidden states for --real-layer (default: --tokens seeded rows)")
        ->needs(real_option);
    cmd->add_option("--tokens", real->tokens, "rows of seeded hidden states for --real-layer (default 32)")
        ->needs(real_option);
    cmd->add_flag("!--no-mpfr", real->mpfr_slice, "skip the 50-digit forward of row 0")->needs(real_option);
    cmd->callback([&context, as_json, grading, grading_option, real, real_option] {
        const bool batch = grading_option->count() > 0;
        if (real_option->count() > 0) {
            real->json = *as_json;
            context.run = [&context, real] { return real_layer_bench(*real, context.lang); };
            return;
        }
        context.run = [&context, as_json, grading, batch] {
            // A bare --grading (CLI11 then leaves 0) means the default class of 200.
            if (batch) return grading_bench(context.root, *grading == 0 ? 200 : *grading, *as_json, context.lang);
            return bench(context.root, *as_json, context.lang);
        };
    });
}

}  // namespace blockcheck
