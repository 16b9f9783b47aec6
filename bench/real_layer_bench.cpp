#include "bench/real_layer_bench.hpp"

#include "checker/common/i18n.hpp"
#include "checker/block/layer_run.hpp"
#include "solutions/block/double_double.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <sys/resource.h>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

double peak_megabytes() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// `rows` x `cols` seeded values in [-2, 2], multiples of 1/64 (exact in every precision).
Matrix<double> seeded_rows(std::size_t rows, std::size_t cols) {
    Matrix<double> x(rows, cols);
    std::uint64_t state = 88172645463325252ull;
    for (double& v : x.values) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;  // xorshift64
        v = static_cast<double>(static_cast<long>(state % 257) - 128) / 64.0;
    }
    return x;
}

// ||a - b||_F / ||b||_F over the first `rows` rows, at 50 digits.
template <class A, class B>
double normwise(const Matrix<A>& a, const Matrix<B>& b, std::size_t rows) {
    Mpfr50 difference(0), reference(0);
    for (std::size_t i = 0; i < rows * b.cols; ++i) {
        const Mpfr50 x = static_cast<Mpfr50>(a.values[i]), y = static_cast<Mpfr50>(b.values[i]);
        difference += (x - y) * (x - y);
        reference += y * y;
    }
    return reference == 0 ? 0.0 : static_cast<double>(sqrt(difference / reference));
}

std::string digits_text(double error) { return error <= 0 ? "all" : fmt::format("{:.1f}", -std::log10(error)); }

}  // namespace

int real_layer_bench(const RealLayerBenchOptions& o, Lang lang) {
    ModelFolder folder(o.model);
    LayerInput input;
    if (o.input.empty()) input.rows = seeded_rows(o.tokens, folder.hf_config<double>().block.hidden_size);
    else input.hidden_states = o.input;
    const bool quiet = o.json;
    const LayerRun<DoubleDouble> dd = run_model_layer<DoubleDouble>(folder, o.layer, input, "bench dd", quiet);
    const double dd_peak = peak_megabytes();
    const LayerRun<double> dbl = run_model_layer<double>(folder, o.layer, input, "bench double", quiet);
    const std::size_t rows = dd.input.rows;
    Json report = {{"model", o.model.string()}, {"layer", o.layer}, {"rows", rows},
                   {"layer_megabytes", static_cast<double>(layer_bytes(folder, o.layer)) / 1e6},
                   {"dd", {{"load_s", dd.load_seconds}, {"forward_s", dd.forward_seconds}, {"forward_cpu_s", dd.forward_cpu_seconds},
                           {"peak_mb", dd_peak}}},
                   {"double", {{"load_s", dbl.load_seconds}, {"forward_s", dbl.forward_seconds},
                               {"forward_cpu_s", dbl.forward_cpu_seconds}, {"peak_mb", peak_megabytes()}}}};
    Json stages = Json::array();
    for (std::size_t i = 0; i < dd.stage_seconds.size(); ++i) {
        const std::string& name = dd.stage_seconds[i].first;
        if (name.starts_with("attention_weights/")) continue;
        stages.push_back({{"stage", name}, {"dd_s", dd.stage_seconds[i].second},
                          {"double_s", dbl.stage_seconds[i].second},
                          {"double_vs_dd_normwise", normwise(dbl.trace.at(name), dd.trace.at(name), rows)}});
    }
    report["stages"] = stages;
    if (o.mpfr_slice) {
        LayerInput first = input;
        Matrix<double> row0 = input.rows ? *input.rows : read_hidden_states(o.input, dd.layer.config.hidden_size);
        row0.values.resize(row0.cols), row0.rows = 1;
        first.rows = row0;
        const LayerRun<Mpfr50> r50 = run_model_layer<Mpfr50>(folder, o.layer, first, "bench MPFR 50, row 0", quiet);
        double worst = 0;
        for (const auto& [name, value] : r50.trace)
            if (!name.starts_with("attention_weights/")) worst = std::max(worst, normwise(dd.trace.at(name), value, 1));
        report["mpfr_50_row0"] = {{"forward_s", r50.forward_seconds}, {"forward_cpu_s", r50.forward_cpu_seconds},
                                  {"forward_s_all_rows_estimate", r50.forward_seconds * static_cast<double>(rows)},
                                  {"dd_vs_50_worst_stage_normwise", worst}};
    }
    if (o.json) {
        fmt::print("{}\n", report.dump(2));
        return 0;
    }
    fmt::print("{}\n", tr_format(lang, "layer {layer} of {model}: {mb:.0f} MB of weights, {rows} rows",
                                 "{model} 的第 {layer} 层：权重 {mb:.0f} MB，{rows} 行", fmt::arg("layer", o.layer),
                                 fmt::arg("model", o.model.string()), fmt::arg("mb", report["layer_megabytes"].get<double>()),
                                 fmt::arg("rows", rows)));
    fmt::print("  {:<20}{:>12}{:>12}{:>8}{:>20}\n", "", "dd", "double", "ratio", "double vs dd");
    fmt::print("  {:<20}{:>10.2f} s{:>10.2f} s\n", tr(lang, "load (map, check)", "加载（映射、检查）"), dd.load_seconds,
               dbl.load_seconds);
    for (const Json& s : stages) {
        const double a = s["dd_s"].get<double>(), b = s["double_s"].get<double>();
        const std::string name = s["stage"].get<std::string>();
        const bool product = name == "Q" || name == "K" || name == "V" || name == "attention_output" ||
                             name == "gate" || name == "up" || name == "down" || name == "output";
        if (!product && a < 0.05) continue;
        fmt::print("  {:<20}{:>10.2f} s{:>10.2f} s{:>7.1f}x{:>13.1e} ({} digits)\n", s["stage"].get<std::string>(), a, b,
                   b > 0 ? a / b : 0.0, s["double_vs_dd_normwise"].get<double>(),
                   digits_text(s["double_vs_dd_normwise"].get<double>()));
    }
    fmt::print("  {:<20}{:>10.2f} s{:>10.2f} s{:>7.1f}x\n", tr(lang, "forward", "前向"), dd.forward_seconds,
               dbl.forward_seconds, dd.forward_seconds / dbl.forward_seconds);
    fmt::print("  {:<20}{:>10.2f} s{:>10.2f} s{:>7.1f}x\n", tr(lang, "forward, CPU time", "前向，CPU 时间"),
               dd.forward_cpu_seconds, dbl.forward_cpu_seconds, dd.forward_cpu_seconds / dbl.forward_cpu_seconds);
    fmt::print("  {:<20}{:>9.0f} MB{:>9.0f} MB\n", tr(lang, "peak memory", "内存峰值"), dd_peak, peak_megabytes());
    if (o.mpfr_slice) {
        const Json& m = report["mpfr_50_row0"];
        fmt::print("{}\n", tr_format(lang,
                                     "MPFR 50 digits on row 0: {s:.1f} s, {cpu:.1f} s CPU (all {rows} rows: about {all:.0f} s); dd agrees "
                                     "with it to {e:.1e} normwise at its worst stage ({d} digits)",
                                     "MPFR 50 位，仅第 0 行：{s:.1f} 秒，CPU {cpu:.1f} 秒（全部 {rows} 行约 {all:.0f} 秒）；dd 与之在最差阶段按范数相差 "
                                     "{e:.1e}（{d} 位）",
                                     fmt::arg("s", m["forward_s"].get<double>()), fmt::arg("rows", rows),
                                     fmt::arg("cpu", m["forward_cpu_s"].get<double>()),
                                     fmt::arg("all", m["forward_s_all_rows_estimate"].get<double>()),
                                     fmt::arg("e", m["dd_vs_50_worst_stage_normwise"].get<double>()),
                                     fmt::arg("d", digits_text(m["dd_vs_50_worst_stage_normwise"].get<double>()))));
    }
    return 0;
}

}  // namespace blockcheck
