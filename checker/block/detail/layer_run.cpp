#include "checker/block/layer_run.hpp"

#include "checker/common/i18n.hpp"
#include "solutions/block/double_double.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

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

template <class T>
KvCache<T> widened(const KvCache<double>& c) {
    KvCache<T> y;
    for (std::size_t j = 0; j < c.size(); ++j) {
        Vector<T> k(c.k[j].begin(), c.k[j].end()), v(c.v[j].begin(), c.v[j].end());
        y.append(k, v, c.positions[j]);
    }
    return y;
}

// Cached keys or values of --past-keys / --past-values: [1, kv_heads, P, d] or [kv_heads, P, d]
// (Hugging Face's cache, its batch of one) or [P, kv_heads x d] (rows as --trace's K_rotated).
// -> [P][kv_heads x d]
std::vector<Vector<double>> cached_rows(const std::filesystem::path& file, const BlockConfig<double>& shape) {
    const Tensor t = read_npy(file);
    const std::size_t kv = shape.kv_heads, d = shape.head_dim;
    std::vector<std::size_t> s = t.shape;
    if (s.size() == 4 && s[0] == 1) s.erase(s.begin());
    std::vector<Vector<double>> rows;
    if (s.size() == 3 && s[0] == kv && s[2] == d) {
        rows.assign(s[1], Vector<double>(kv * d));
        for (std::size_t h = 0; h < kv; ++h)
            for (std::size_t p = 0; p < s[1]; ++p)
                for (std::size_t c = 0; c < d; ++c) rows[p][h * d + c] = t.values[(h * s[1] + p) * d + c];
    } else if (s.size() == 2 && s[1] == kv * d) {
        for (std::size_t p = 0; p < s[0]; ++p)
            rows.emplace_back(t.values.begin() + p * kv * d, t.values.begin() + (p + 1) * kv * d);
    } else {
        throw InputFileError(fmt::format("{}: shape {}, expected [1, {kv}, P, {d}], [{kv}, P, {d}] or [P, {kvd}] "
                                         "(kv_heads {kv}, head_dim {d})",
                                         file.string(), shape_text(t.shape), fmt::arg("kv", kv), fmt::arg("d", d),
                                         fmt::arg("kvd", kv * d)));
    }
    if (rows.size() > max_case_rows) throw InputFileError(file.string() + ": more cached positions than " +
                                                          std::to_string(max_case_rows));
    return rows;
}

// The keys and values cached before the rows, at positions 0 .. P-1 (none without --past-keys).
KvCache<double> read_cache(const LayerInput& input, const BlockConfig<double>& shape) {
    KvCache<double> cache;
    if (input.past_keys.empty() && input.past_values.empty()) return cache;
    if (input.past_keys.empty() || input.past_values.empty())
        throw InputFileError("--past-keys and --past-values: give both, or neither");
    const std::vector<Vector<double>> k = cached_rows(input.past_keys, shape), v = cached_rows(input.past_values, shape);
    if (k.size() != v.size())
        throw InputFileError(fmt::format("{}: {} cached positions, {} has {}", input.past_values.string(), v.size(),
                                         input.past_keys.string(), k.size()));
    for (std::size_t p = 0; p < k.size(); ++p) cache.append(k[p], v[p], static_cast<long>(p));
    return cache;
}

// position_ids from --positions, [T] or [1, T], or start .. start + T - 1; each checked to be a
// whole number in 0 .. max_case_position, increasing, after the `cached` positions.
std::vector<long> row_positions(const LayerInput& input, std::size_t rows, std::size_t cached) {
    std::vector<long> positions;
    std::string where = "--start-position";
    if (!input.positions.empty()) {
        where = input.positions.string();
        const Tensor t = read_npy(input.positions);
        if (!(t.shape.size() == 1 || (t.shape.size() == 2 && t.shape[0] == 1)) || t.values.size() != rows)
            throw InputFileError(fmt::format("{}: shape {}, expected [{}] or [1, {}]: one position a row", where,
                                             shape_text(t.shape), rows, rows));
        for (double p : t.values) {
            if (p != std::floor(p) || p < 0 || p > static_cast<double>(max_case_position))
                throw InputFileError(fmt::format("{}: position {} is not a whole number in 0 .. 2^40", where, p));
            positions.push_back(static_cast<long>(p));
        }
        for (std::size_t r = 1; r < positions.size(); ++r)
            if (positions[r] <= positions[r - 1])
                throw InputFileError(fmt::format("{}: position_ids must increase ({} then {} at row {})", where,
                                                 positions[r - 1], positions[r], r));
    } else {
        const long start = input.start_position.value_or(static_cast<long>(cached));
        if (start < 0 || start > max_case_position) throw InputFileError(where + ": expected 0 .. 2^40");
        positions = consecutive_positions(start, rows);
    }
    if (!positions.empty() && positions.front() < static_cast<long>(cached))
        throw InputFileError(fmt::format("{}: the first row is at position {}, not after the {} cached keys "
                                         "(positions 0 .. {})",
                                         where, positions.front(), cached, cached - 1));
    return positions;
}

// CPU seconds the process has used, every thread.
double process_cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

}  // namespace

LayerRows read_layer_rows(const LayerInput& input, const BlockConfig<double>& shape) {
    LayerRows rows;
    rows.input = input.rows ? *input.rows : read_hidden_states(input.hidden_states, shape.hidden_size);
    if (rows.input.cols != shape.hidden_size)
        throw InputFileError("the hidden states have " + std::to_string(rows.input.cols) + " columns, config.json's "
                             "hidden_size is " + std::to_string(shape.hidden_size));
    rows.cached = read_cache(input, shape);
    rows.positions = row_positions(input, rows.input.rows, rows.cached.size());
    return rows;
}

void add_layer_input_options(CLI::App& cmd, LayerInput& input, CLI::Option* model) {
    cmd.add_option("--input", input.hidden_states, "hidden states [T, C] for --model (.npy or .safetensors)")->needs(model);
    CLI::Option* start = cmd.add_option("--start-position", input.start_position,
                                        "position of the first row (--model; default 0, or after the cached keys)")
                             ->needs(model);
    cmd.add_option("--positions", input.positions,
                   "position_ids of the rows (--model): .npy of integers, [T] or [1, T], increasing")
        ->needs(model)
        ->excludes(start);
    CLI::Option* keys = cmd.add_option("--past-keys", input.past_keys,
                                       "cached rotated keys before the rows (--model): .npy [1, kv_heads, P, head_dim], "
                                       "[kv_heads, P, head_dim] or [P, kv_heads x head_dim], at positions 0 .. P-1")
                            ->needs(model);
    cmd.add_option("--past-values", input.past_values, "the cached values, shaped as --past-keys (--model)")
        ->needs(keys);
    keys->needs("--past-values");
}

template <class T>
LayerRun<T> run_model_layer(ModelFolder& folder, std::size_t layer, const LayerInput& input, const std::string& what,
                            bool quiet, ProductMemo<T>* memo) {
    const auto start = std::chrono::steady_clock::now();
    LayerRun<T> run;
    run.layer = load_model_layer<T>(folder, layer);
    const LayerRows rows = read_layer_rows(input, folder.hf_config<double>().block);
    run.input = widened<T>(rows.input);
    run.positions = rows.positions;
    run.cached = widened<T>(rows.cached);
    run.load_seconds = seconds_from(start);
    StageProgress progress(what, stage_multiply_adds(run.layer.config, run.input.rows), quiet);
    run.trace.on_add = [&progress](const std::string& name) { progress.stage_done(name); };
    const auto forward_start = std::chrono::steady_clock::now();
    const double cpu_start = process_cpu_seconds();
    KvCache<T> cache = run.cached;
    const std::span<const long> at(run.positions);
    try {
        if (memo) run.output = block_step(run.layer.config, remembered(run.layer.weights, *memo), run.input, at, cache, &run.trace);
        else run.output = block_step(run.layer.config, run.layer.weights, run.input, at, cache, &run.trace);
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

void say_layer_family(ModelFolder& folder, std::size_t layer, const std::string& what, Lang lang) {
    const HfConfig<double> hf = folder.hf_config<double>();
    const std::vector<Text> mechanisms = layer_mechanisms(hf, layer);
    fmt::print(stderr, "{}: {}\n", what,
               mechanisms.empty()
                   ? tr_format(lang, "{type} layer {n}: the LLaMA block", "{type} 第 {n} 层：LLaMA 模块",
                               fmt::arg("type", hf.model_type), fmt::arg("n", layer))
                   : tr_format(lang, "{type} layer {n}, beyond the LLaMA block:", "{type} 第 {n} 层，与 LLaMA 模块的不同之处：",
                               fmt::arg("type", hf.model_type), fmt::arg("n", layer)));
    for (const Text& m : mechanisms) fmt::print(stderr, "  {}\n", m.in(lang));
    for (const Text& note : hf.notes) fmt::print(stderr, "  {}\n", note.in(lang));
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

template LayerRun<double> run_model_layer<double>(ModelFolder&, std::size_t, const LayerInput&, const std::string&, bool,
                                                  ProductMemo<double>*);
template LayerRun<DoubleDouble> run_model_layer<DoubleDouble>(ModelFolder&, std::size_t, const LayerInput&,
                                                              const std::string&, bool, ProductMemo<DoubleDouble>*);
template LayerRun<Mpfr50> run_model_layer<Mpfr50>(ModelFolder&, std::size_t, const LayerInput&, const std::string&, bool,
                                                  ProductMemo<Mpfr50>*);
template LayerRun<Mpfr100> run_model_layer<Mpfr100>(ModelFolder&, std::size_t, const LayerInput&, const std::string&,
                                                    bool, ProductMemo<Mpfr100>*);

}  // namespace blockcheck
