// `blockcheck compare CASE OUTPUT`: another implementation's block output (and any intermediates
// it carries under the --trace names) against the 50-digit reference, as a numerical analyst
// reads it: norm-wise and element-wise errors, where each is worst, and a tolerance derived
// from the implementation's floating-point type and the block's depth.
#include "checker/block/block_case.hpp"
#include "checker/block/block_case_files.hpp"
#include "checker/block/block_output.hpp"
#include "checker/block/error_report.hpp"
#include "checker/block/mistake_match.hpp"
#include "checker/common/cli.hpp"
#include "checker/block/layer_run.hpp"
#include "solutions/block/block_mistakes.hpp"
#include "solutions/block/double_double.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

struct CompareOptions {
    std::string case_file, output_file;
    std::string model;  // a checkpoint folder instead of a case
    std::size_t layer = 0;
    LayerInput input;
    std::string precision = "dd";  // of the reference on --model
    bool search_mistakes = false;  // run the mistake search whatever it costs
    double search_budget = 20;     // else begin no mistake after this many seconds of compare
    std::string dtype = "float64";
    std::optional<double> rtol, atol;
    std::optional<std::string> layout;  // the pair layout of the submission's Q/K stages; found when absent
    bool json = false;
};

RopeLayout layout_named(const std::string& name) { return name == "half" ? RopeLayout::half : RopeLayout::interleaved; }
const char* layout_name(RopeLayout layout) { return layout == RopeLayout::half ? "half" : "interleaved"; }

// Whether Q and K (or, when `given` carries neither, Q_rotated and K_rotated), read in `layout`,
// are within their tolerance; false when it carries none of them. The projections before RoPE
// tell the layout apart from a rotation bug.
bool qk_stages_fit(const Trace<Mpfr50>& given, const Trace<Mpfr50>& reference, const BlockConfig<Mpfr50>& config,
                   std::size_t keys, RopeLayout layout, DType dtype, const CompareOptions& o) {
    Trace<Mpfr50> qk;
    for (const auto& [name, m] : given)
        if (name == "Q" || name == "K") qk.add(name, m);
    if (qk.size() == 0)
        for (const auto& [name, m] : given)
            if (name == "Q_rotated" || name == "K_rotated") qk.add(name, m);
    if (qk.size() == 0) return false;
    const Trace<Mpfr50> mapped = in_pair_layout(qk, config.head_dim, layout, config.rope_layout);
    const std::vector<StageErrors> stages = compare_stages(mapped, reference, config, keys, dtype, o.rtol, o.atol);
    return std::all_of(stages.begin(), stages.end(), [](auto& s) { return s.within(); });
}

// The pair layout the submission's Q/K stages are read in: --layout when given; else the case's,
// unless they are outside there and within in the other layout (a port keeping Hugging Face's
// rotate_half order on an interleaved case, or Meta's on a half one). Only those stages move, so
// a wrong rotation still shows at Q_rotated and at the output.
RopeLayout submission_layout(const Trace<Mpfr50>& given, const Trace<Mpfr50>& reference, const BlockConfig<Mpfr50>& config,
                             std::size_t keys, DType dtype, const CompareOptions& o) {
    if (o.layout) return layout_named(*o.layout);
    const RopeLayout own = config.rope_layout;
    const RopeLayout other = own == RopeLayout::half ? RopeLayout::interleaved : RopeLayout::half;
    if (!qk_stages_fit(given, reference, config, keys, own, dtype, o) &&
        qk_stages_fit(given, reference, config, keys, other, dtype, o))
        return other;
    return own;
}

// The submission's stages as the reference lays them out (above), and which layout that was.
struct LaidOut {
    Trace<Mpfr50> given;
    RopeLayout layout, own;
    bool detected = false;  // read in the other layout without --layout
};

LaidOut laid_out_like_reference(const Trace<Mpfr50>& submitted, const Trace<Mpfr50>& reference,
                                const BlockConfig<Mpfr50>& config, std::size_t keys, DType dtype, const CompareOptions& o) {
    const RopeLayout layout = submission_layout(submitted, reference, config, keys, dtype, o);
    return {in_pair_layout(submitted, config.head_dim, layout, config.rope_layout), layout, config.rope_layout,
            !o.layout && layout != config.rope_layout};
}

Json element_json(const StageErrors& s, const ElementAt& e) {
    return {{"at", element_name(s, e)}, {"row", e.row}, {"col", e.col}, {"given", e.given}, {"reference", e.reference}};
}

Json stage_json(const StageErrors& s, DType dtype) {
    Json j = {{"stage", s.name},
              {"elements", s.rows * s.cols},
              {"shape", {s.rows, s.cols}},
              {"max_abs_error", s.max_abs},
              {"mean_abs_error", s.mean_abs},
              {"max_abs_reference", s.max_reference},
              {"normwise_rel_error", s.normwise},
              {"frobenius_rel_error", s.frobenius},
              {"normwise_rel_error_eps", s.normwise / epsilon(dtype)},
              {"max_rel_error", s.max_rel},
              {"mean_rel_error", s.mean_rel},
              {"max_rel_error_eps", s.max_rel / epsilon(dtype)},
              {"worst_abs", element_json(s, s.worst_abs)},
              {"worst_rel", element_json(s, s.worst_rel)},
              {"worst_tolerance_use", s.worst_allowance.value < 0 ? 0.0 : s.worst_allowance.value},
              {"worst_tolerance_element", element_json(s, s.worst_allowance)},
              {"rtol", s.tolerance.rtol},
              {"atol", s.tolerance.atol},
              {"depth", s.tolerance.depth},
              {"worst_ulps", s.worst_ulps},
              {"fewest_digits_agreed", s.fewest_digits},
              {"nonfinite", s.nonfinite},
              {"outside_tolerance", s.outside},
              {"within_tolerance", s.within()}};
    if (s.faithful >= 0) {
        j["faithful_run_normwise_eps"] = s.faithful / epsilon(dtype);
        j["faithful_limit_eps"] = s.faithful_limit / epsilon(dtype);
        j["beyond_faithful"] = s.beyond_faithful;
    }
    j["worst_abs"]["abs_error"] = s.worst_abs.value;
    j["worst_rel"]["rel_error"] = s.worst_rel.value;
    j["worst_rel"]["reference_over_max"] = s.max_reference > 0 ? std::abs(s.worst_rel.reference) / s.max_reference : 0.0;
    if (s.first_nonfinite) j["first_nonfinite"] = element_json(s, *s.first_nonfinite);
    return j;
}

// What was compared: the stages, the search, the rows' positions, and the block's configuration.
struct Compared {
    std::string against;  // the case or the layer
    LaidOut seen;
    std::vector<StageErrors> stages;
    MistakeSearch mistakes;
    std::vector<long> positions;  // of the output's rows
    const BlockConfig<Mpfr50>& config;
};

Json rows_json(const StageErrors& s, const std::vector<long>& positions, DType dtype) {
    Json rows = Json::array();
    for (std::size_t r = 0; r < s.row_errors.size(); ++r) {
        const RowErrors& row = s.row_errors[r];
        rows.push_back({{"row", r},
                        {"position", positions.at(r)},
                        {"normwise_error_eps", row.normwise / epsilon(dtype)},
                        {"worst_ulps", row.worst_ulps},
                        {"fewest_digits_agreed", row.fewest_digits},
                        {"outside_tolerance", row.outside},
                        {"within", row.within()}});
    }
    return rows;
}

// Prints (or writes as JSON) the comparison.
int report(const CompareOptions& o, Lang lang, const Compared& c) {
    const DType dtype = dtype_named(o.dtype);
    const std::vector<StageErrors>& stages = c.stages;
    const StageErrors& output = *std::find_if(stages.begin(), stages.end(), [](auto& s) { return s.name == "output"; });
    const bool within = std::all_of(stages.begin(), stages.end(), [](auto& s) { return s.within(); });
    const StageErrors* first = first_stage_outside(stages);
    if (o.json) {
        Json j = stage_json(output, dtype);
        j["rows"] = rows_json(output, c.positions, dtype);
        j["case"] = c.against;
        j["dtype"] = dtype_name(dtype);
        j["epsilon"] = epsilon(dtype);
        if (stages.size() > 1) {
            j["stages"] = Json::array();
            for (const StageErrors& s : stages) j["stages"].push_back(stage_json(s, dtype));
            j["first_stage_outside"] = first ? Json(first->name) : Json(nullptr);
        }
        j["within"] = within;
        j["layout"] = layout_name(c.seen.layout);
        if (c.seen.detected) j["layout_detected"] = true;
        j.update(mistake_search_json(c.mistakes, c.config));
        fmt::print("{}\n", j.dump(2));
        return within ? 0 : 1;
    }
    fmt::print("{} {} ({})\n", o.model.empty() ? tr(lang, "compared with the 50-digit reference of", "对照 50 位精度参考值：")
                                               : tr(lang, "compared with the reference of", "对照参考值："),
               c.against, dtype_name(dtype));
    print_output_report(output, first, dtype, lang);
    if (stages.size() > 1) print_stages(stages, dtype, lang);
    else print_rows(output, c.positions, dtype, lang);
    if (c.seen.detected)
        fmt::print("{}\n", tr_format(lang,
                                     "Q/K stages read in the {layout} pair layout, where they fit (outside in the "
                                     "case's {own}): the order a port keeping {layout} pairs computes them in; only "
                                     "these stages were mapped, within each head (--layout {own} reads them as they are)",
                                     "Q/K 各阶段按 {layout} 配对布局读取，它们与之吻合（按用例自身的 {own} 布局则超出容差）："
                                     "这正是保持 {layout} 配对的移植给出的顺序；只重排了这些阶段（在每个头之内），"
                                     "--layout {own} 则按原样读取",
                                     fmt::arg("layout", layout_name(c.seen.layout)),
                                     fmt::arg("own", layout_name(c.seen.own))));
    print_mistake_search(c.mistakes, c.config, within, dtype, lang);
    return within ? 0 : 1;
}

// A trace at 50 digits (a double-double's or a float's value is exact there).
template <class T>
Trace<Mpfr50> trace_at_50(const Trace<T>& trace) {
    Trace<Mpfr50> wide;
    for (const auto& [name, value] : trace) wide.add(name, convert<Mpfr50>(value));
    return wide;
}

// The faithful run (error_report.hpp) of `run_in<F>()` in the dtype's arithmetic: float32 and
// float64 only (C++ has no bfloat16 or float16 arithmetic here), none with --rtol/--atol, and none
// where the block refuses the values rounded to it (a weight beyond float's range, ...).
template <class Run>
std::optional<Trace<Mpfr50>> faithful_run(const CompareOptions& o, Run run_in) {
    if (o.rtol || o.atol) return std::nullopt;
    try {
        if (o.dtype == "float32") return run_in(float());
        if (o.dtype == "float64") return run_in(double());
    } catch (const InputFileError&) {
    } catch (const std::domain_error&) {
    } catch (const std::invalid_argument&) {
    }
    return std::nullopt;
}

// The case's block in F's arithmetic, as a port in F computes it.
template <class F>
Trace<Mpfr50> case_in(const std::string& case_file) {
    Trace<F> trace;
    block_case_forward(read_case_file<F>(case_file), &trace);
    return trace_at_50(trace);
}

int compare(const CompareOptions& o, Lang lang) {
    const DType dtype = dtype_named(o.dtype);
    const BlockCase<Mpfr50> bc = read_case_file<Mpfr50>(o.case_file);
    Trace<Mpfr50> reference;
    block_case_forward(bc, &reference);
    const std::size_t keys = bc.cached.size() + bc.input.rows;
    const LaidOut seen =
        laid_out_like_reference(read_block_output(o.output_file, reference), reference, bc.config, keys, dtype, o);
    const auto faithful = faithful_run(o, [&](auto f) { return case_in<decltype(f)>(o.case_file); });
    const Trace<Mpfr50>* f = faithful ? &*faithful : nullptr;
    std::vector<long> positions;
    for (std::size_t r = 0; r < bc.input.rows; ++r) positions.push_back(bc.start_position + static_cast<long>(r));
    return report(o, lang,
                  {o.case_file, seen, compare_stages(seen.given, reference, bc.config, keys, dtype, o.rtol, o.atol, f),
                   search_porting_mistakes(bc, seen.given, reference, dtype, o.rtol, o.atol, f), positions, bc.config});
}

// The layer in F's arithmetic, as a port in F computes it: the file's weights widened as used,
// the gains, rows and cache rounded to F.
template <class F>
Trace<Mpfr50> layer_in(ModelFolder& folder, const CompareOptions& o) {
    const ModelLayer<double> layer = load_model_layer<double>(folder, o.layer);
    const LayerRows rows = read_layer_rows(o.input, folder.hf_config<double>().block);
    const auto& w = layer.weights;
    auto gains = [](const Vector<double>& g) { return Vector<F>(g.begin(), g.end()); };
    const BlockWeights<F, StoredMatrix> weights{gains(w.attn_norm), w.q,          w.k,           w.v,
                                                w.o,                gains(w.ffn_norm), w.gate,    w.up,
                                                w.down,             gains(w.q_bias),   gains(w.k_bias), gains(w.v_bias),
                                                gains(w.q_norm),    gains(w.k_norm),   gains(w.attn_out_norm),
                                                gains(w.ffn_out_norm)};
    KvCache<F> cache;
    for (std::size_t j = 0; j < rows.cached.size(); ++j)
        cache.append(gains(rows.cached.k[j]), gains(rows.cached.v[j]), rows.cached.positions[j]);
    Trace<F> trace;
    block_step(folder.hf_config<F>().block, weights, convert<F>(rows.input), std::span<const long>(rows.positions), cache,
               &trace);
    return trace_at_50(trace);
}

// The layer's first rows alone (two), with a mistake made: the block is causal, so they are the
// whole run's first rows bit for bit where the mistake keeps it causal and RoPE's frequencies are
// those of the whole sequence (dynamic NTK and LongRoPE read its length). A product the reference's
// run on these rows made is reused (their own memo). A tenth of a forward's products or less.
template <class T>
struct FirstRows {
    static constexpr std::size_t count = 2;
    const LayerRun<T>& layer;
    Matrix<T> rows;
    std::vector<long> positions;
    ProductMemo<T> memo;

    explicit FirstRows(const LayerRun<T>& l) : layer(l) {
        const std::size_t k = std::min(count, l.input.rows);
        rows = Matrix<T>(k, l.input.cols);
        std::copy_n(l.input.values.begin(), k * l.input.cols, rows.values.begin());
        positions.assign(l.positions.begin(), l.positions.begin() + static_cast<std::ptrdiff_t>(k));
        if (k < l.input.rows) run(l.layer.config);
        memo.recording = false;
    }
    Matrix<T> run(const BlockConfig<T>& config) {
        KvCache<T> cache = layer.cached;
        return block_step(config, remembered(layer.layer.weights, memo), rows, std::span<const long>(positions), cache);
    }
    std::optional<Matrix<Mpfr50>> with(const PortingMistake& mistake) {
        BlockConfig<T> changed = layer.layer.config;
        make_layer_mistake(changed, mistake.key());
        const auto offset = static_cast<std::size_t>(changed.position_offset);
        const Rope<T> alone = changed.rope(static_cast<std::size_t>(positions.back() + 1) + offset),
                      whole = changed.rope(static_cast<std::size_t>(layer.positions.back() + 1) + offset);
        if (!changed.causal || changed.mask_reversed || alone.inverse_frequencies != whole.inverse_frequencies ||
            alone.attention_factor != whole.attention_factor || alone.position_divisor != whole.position_divisor)
            return std::nullopt;
        try {
            return convert<Mpfr50>(run(changed));
        } catch (const std::domain_error&) {
        } catch (const std::invalid_argument&) {
        }
        return std::nullopt;
    }
};

// The search on a checkpoint's layer: each mistake's run reuses every product of the reference's
// run whose input it leaves unchanged (the memo), and stops once its stages have decided; most
// are decided on the layer's first rows alone (FirstRows).
template <class T>
MistakeSearch search_layer(const CompareOptions& o, const LayerRun<T>& layer, ProductMemo<T>& memo,
                           const BlockConfig<Mpfr50>& config, const Trace<Mpfr50>& given,
                           const Trace<Mpfr50>& reference, const Trace<Mpfr50>* faithful, double compare_seconds,
                           Lang lang) {
    const auto weights = remembered(layer.layer.weights, memo);
    const auto start = std::chrono::steady_clock::now();
    std::size_t begun = 0;
    const auto run = [&](const PortingMistake& mistake, StageJudge& judge) {
        BlockConfig<T> changed = layer.layer.config;
        make_layer_mistake(changed, mistake.key());
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (seconds > 2)
            fmt::print(stderr, "{}\n", tr_format(lang, "compare: porting mistake {k} of {n} ({id}), {s:.0f} s",
                                                 "compare：移植错误 {n} 个中的第 {k} 个（{id}），{s:.0f} 秒",
                                                 fmt::arg("k", begun + 1), fmt::arg("n", porting_mistakes().size()),
                                                 fmt::arg("id", mistake.key()), fmt::arg("s", seconds)));
        ++begun;
        return run_judged<T>(judge, [&](Trace<T>& trace) {
            KvCache<T> cache = layer.cached;
            block_step(changed, weights, layer.input, std::span<const long>(layer.positions), cache, &trace);
        });
    };
    // --search-budget counts compare's whole time: the reference's and the faithful run's seconds are spent
    const std::optional<double> budget =
        o.search_mistakes ? std::nullopt : std::optional(std::max(0.0, o.search_budget - compare_seconds));
    // a move below the reference's own digits is none (dd: 30 digits, fewer at large positions)
    const double resolution = o.precision == "50" ? 1e-40 : std::pow(10.0, 3 - dd_guaranteed_digits(layer.positions.back()));
    FirstRows<T> first(layer);
    MistakeRun with{made_on(layer.layer.config), run, resolution};
    if (first.rows.rows < layer.input.rows)
        with.first_rows = [&first](const PortingMistake& mistake) { return first.with(mistake); };
    MistakeSearch search = search_porting_mistakes(with, config, layer.cached.size() + layer.input.rows, given, reference,
                                                   dtype_named(o.dtype), o.rtol, o.atol, budget, faithful);
    search.budget_seconds = o.search_budget;
    return search;
}

template <class T>
int compare_model_at(const CompareOptions& o, Lang lang) {
    const auto start = std::chrono::steady_clock::now();
    const DType dtype = dtype_named(o.dtype);
    ModelFolder folder(o.model);
    say_layer_family(folder, o.layer, "compare", lang);
    ProductMemo<T> memo;
    const LayerRun<T> run = run_model_layer<T>(folder, o.layer, o.input, "compare", false, &memo);
    memo.recording = false;
    fmt::print(stderr, "compare: {}\n", precision_statement(o.precision, run.positions.back(), lang));
    const Trace<Mpfr50> reference = trace_at_50(run.trace);
    const BlockConfig<Mpfr50> config = layer_block(folder.hf_config<Mpfr50>(), o.layer);
    const std::size_t keys = run.cached.size() + run.input.rows;
    const LaidOut seen = laid_out_like_reference(read_block_output(o.output_file, reference), reference, config, keys, dtype, o);
    const auto faithful = faithful_run(o, [&](auto f) { return layer_in<decltype(f)>(folder, o); });
    const Trace<Mpfr50>* f = faithful ? &*faithful : nullptr;
    return report(o, lang,
                  {fmt::format("{} layer {}", o.model, o.layer), seen,
                   compare_stages(seen.given, reference, config, keys, dtype, o.rtol, o.atol, f),
                   search_layer(o, run, memo, config, seen.given, reference, f,
                                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), lang),
                   run.positions, config});
}

int compare_either(const CompareOptions& o, Lang lang) {
    if (o.model.empty()) return compare(o, lang);
    if (o.precision == "50") return compare_model_at<Mpfr50>(o, lang);
    return compare_model_at<DoubleDouble>(o, lang);
}

}  // namespace

void add_compare_command(CLI::App& app, Context& context) {
    auto options = std::make_shared<CompareOptions>();
    CLI::App* cmd = app.add_subcommand(
        "compare", "grade another implementation's block output against the 50-digit reference");
    cmd->add_option("case", options->case_file, "block case file (JSON); not with --model");
    cmd->add_option("output", options->output_file,
                    "the other implementation's output: JSON {\"output\": [[...]], \"trace\": {...}}, .npy or "
                    ".safetensors");
    CLI::Option* model = cmd->add_option("--model", options->model,
                                         "a Hugging Face checkpoint folder (config.json, safetensors, their index)");
    cmd->add_option("--layer", options->layer, "the decoder layer of --model (model.layers.N)")->needs(model);
    add_layer_input_options(*cmd, options->input, model);
    cmd->add_option("--precision", options->precision, "the reference's precision on --model: dd (30 digits) or 50")
        ->check(CLI::IsMember({"dd", "50"}))
        ->needs(model)
        ->capture_default_str();
    CLI::Option* all = cmd->add_flag("--search-mistakes", options->search_mistakes,
                                     "on --model, try every porting mistake however long it takes")
                           ->needs(model);
    cmd->add_option("--search-budget", options->search_budget,
                    "on --model, seconds of compare (from its start, the reference's run included) after which the "
                    "porting-mistake search begins no more mistakes (it lists those it did not try)")
        ->needs(model)
        ->excludes(all)
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_option("--dtype", options->dtype,
                    "the other implementation's floating-point type; sets rtol = 4 eps sqrt(depth), atol = rtol max|ref|")
        ->check(CLI::IsMember({"float64", "float32", "bfloat16", "float16"}))
        ->capture_default_str();
    cmd->add_option("--rtol", options->rtol, "relative tolerance instead (as numpy.allclose)");
    cmd->add_option("--atol", options->atol, "absolute tolerance instead (as numpy.allclose)");
    cmd->add_option("--layout", options->layout,
                    "the RoPE pair layout of the output's Q/K stages: half (Hugging Face's rotate_half, pairs "
                    "(i, i + d/2)) or interleaved (pairs (2i, 2i + 1)); those stages are mapped within each head, "
                    "the output is judged as it is (default: the case's, or the other when the stages fit only it)")
        ->check(CLI::IsMember({"half", "interleaved"}));
    cmd->add_flag("--json", options->json, "print every figure as JSON");
    cmd->callback([&context, options] {
        // CLI11 fills positionals in order: with --model the one positional given is the output.
        if (!options->model.empty()) {
            if (!options->output_file.empty())
                throw CLI::ValidationError("compare", "with --model give only the OUTPUT file, no case");
            std::swap(options->case_file, options->output_file);
        }
        if (options->output_file.empty())
            throw CLI::ValidationError("compare", "give a block case and an output, or --model DIR --layer N --input HIDDEN OUTPUT");
        if (!options->model.empty() && options->input.hidden_states.empty())
            throw CLI::ValidationError("--input", "--model needs --input HIDDEN (.npy or .safetensors)");
        context.run = [&context, options] { return compare_either(*options, context.lang); };
    });
}

}  // namespace blockcheck
