#include "checker/block/layer_run.hpp"

#include "checker/common/i18n.hpp"
#include "solutions/block/double_double.hpp"

#include <chrono>
#include <cmath>
#include <ctime>
#include <thread>

namespace blockcheck {
namespace {

double seconds_from(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <class T>
Matrix<T> widened(const Matrix<double>& x) {
    Matrix<T> y(x.rows, x.cols);
    for (std::size_t i = 0; i < x.values.size(); ++i) y.values[i] = T(x.values[i]);
    return y;
}

// CPU seconds the process has used, every thread.
double process_cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

}  // namespace

template <class T>
LayerRun<T> run_model_layer(ModelFolder& folder, std::size_t layer, const LayerInput& input, const std::string& what,
                            bool quiet) {
    const auto start = std::chrono::steady_clock::now();
    LayerRun<T> run;
    run.layer = load_model_layer<T>(folder, layer);
    run.input = widened<T>(input.rows ? *input.rows : read_hidden_states(input.hidden_states, run.layer.config.hidden_size));
    if (run.input.cols != run.layer.config.hidden_size)
        throw InputFileError("the hidden states have " + std::to_string(run.input.cols) + " columns, config.json's "
                             "hidden_size is " + std::to_string(run.layer.config.hidden_size));
    run.load_seconds = seconds_from(start);
    if (input.start_position < 0 || input.start_position > max_case_position)
        throw InputFileError("--start-position: expected 0 .. " + std::to_string(max_case_position));
    StageProgress progress(what, stage_multiply_adds(run.layer.config, run.input.rows), quiet);
    run.trace.on_add = [&progress](const std::string& name) { progress.stage_done(name); };
    const auto forward_start = std::chrono::steady_clock::now();
    const double cpu_start = process_cpu_seconds();
    KvCache<T> cache;
    try {
        run.output = block_step(run.layer.config, run.layer.weights, run.input, input.start_position, cache, &run.trace);
    } catch (const UndefinedNorm& e) {
        throw InputFileError(input.hidden_states.string() + ": " + e.what() + " (config.rms_norm_eps is 0)");
    }
    run.forward_seconds = seconds_from(forward_start);
    run.forward_cpu_seconds = process_cpu_seconds() - cpu_start;
    progress.finish();
    run.trace.on_add = nullptr;
    run.stage_seconds = progress.stage_seconds();
    return run;
}

int dd_guaranteed_digits(long largest_position) {
    if (largest_position < 80) return 30;
    return static_cast<int>(std::floor(31.9 - std::log10(static_cast<double>(largest_position))));
}

std::string precision_statement(const std::string& precision, long largest_position, Lang lang) {
    if (precision == "dd")
        return tr_format(lang,
                         "precision dd (double-double, 106 bits): {n} significant digits guaranteed normwise at "
                         "every stage (docs/performance.md)",
                         "精度 dd（双双精度，106 位）：每一阶段按范数保证 {n} 位有效数字（见 docs/performance.md）",
                         fmt::arg("n", dd_guaranteed_digits(largest_position)));
    if (precision == "double")
        return std::string(tr(lang, "precision double: about 16 digits carried, none guaranteed (rounding grows with "
                                    "the block's depth); use dd or 50 for a reference",
                              "精度 double：约 16 位，不保证任何位数（舍入误差随层深增长）；参考值请用 dd 或 50"));
    return tr_format(lang, "precision {p} (MPFR, {p} significant digits carried)", "精度 {p}（MPFR，保留 {p} 位有效数字）",
                     fmt::arg("p", precision));
}

double mpfr_seconds_estimate(double multiply_adds, const std::string& precision) {
    const double per_multiply_add = precision == "100" ? 0.12e-6 : 0.08e-6;
    return multiply_adds * per_multiply_add / std::max(1u, std::thread::hardware_concurrency());
}

void warn_if_slow_mpfr(double multiply_adds, const std::string& precision, Lang lang) {
    if (precision != "50" && precision != "100") return;
    const double seconds = mpfr_seconds_estimate(multiply_adds, precision);
    if (seconds < 60) return;
    fmt::print(stderr, "{}\n",
               tr_format(lang,
                         "note: {macs:.3g} multiply-adds at {p} digits take about {min:.0f} minutes here; "
                         "--precision dd gives 30 guaranteed digits in seconds",
                         "提示：{p} 位精度下 {macs:.3g} 次乘加在本机约需 {min:.0f} 分钟；--precision dd 几秒内给出有保证的 30 位",
                         fmt::arg("macs", multiply_adds), fmt::arg("p", precision), fmt::arg("min", seconds / 60)));
}

template LayerRun<double> run_model_layer<double>(ModelFolder&, std::size_t, const LayerInput&, const std::string&, bool);
template LayerRun<DoubleDouble> run_model_layer<DoubleDouble>(ModelFolder&, std::size_t, const LayerInput&,
                                                              const std::string&, bool);
template LayerRun<Mpfr50> run_model_layer<Mpfr50>(ModelFolder&, std::size_t, const LayerInput&, const std::string&, bool);
template LayerRun<Mpfr100> run_model_layer<Mpfr100>(ModelFolder&, std::size_t, const LayerInput&, const std::string&,
                                                    bool);

}  // namespace blockcheck
