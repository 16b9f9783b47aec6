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
    double search_budget = 120;    // else begin no mistake after this many seconds of search
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

std::string element_name(const StageErrors& s, const ElementAt& e) { return fmt::format("{}[{}][{}]", s.name, e.row, e.col); }

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
              {"nonfinite", s.nonfinite},
              {"outside_tolerance", s.outside},
              {"within_tolerance", s.within()}};
    j["worst_abs"]["abs_error"] = s.worst_abs.value;
    j["worst_rel"]["rel_error"] = s.worst_rel.value;
    j["worst_rel"]["reference_over_max"] = s.max_reference > 0 ? std::abs(s.worst_rel.reference) / s.max_reference : 0.0;
    if (s.first_nonfinite) j["first_nonfinite"] = element_json(s, *s.first_nonfinite);
    return j;
}

std::string tolerance_rule(const Tolerance& t, DType dtype, Lang lang) {
    if (t.depth == 0) return fmt::format("|err| <= {} + {} |ref| ({})", t.atol, t.rtol, tr(lang, "as given", "按命令行给定"));
    return fmt::format("{}: rtol = {:g} eps sqrt(depth {}) = {:.3g}, atol = rtol max|ref| = {:.3g}", dtype_name(dtype),
                       t.multiple, t.depth, t.rtol, t.atol);
}

void print_output_stage(const StageErrors& s, DType dtype, Lang lang) {
    auto at = [&](const ElementAt& e) {
        return fmt::format("{} ({} {}, {} {})", element_name(s, e), tr(lang, "given", "提交值"), to_decimal(e.given, 17),
                           tr(lang, "reference", "参考值"), to_decimal(e.reference, 17));
    };
    fmt::print("  {:<18}{} ({} x {})\n", tr(lang, "elements", "元素个数"), s.rows * s.cols, s.rows, s.cols);
    fmt::print("  {:<18}{:.3e}  {} {}\n", tr(lang, "max abs error", "最大绝对误差"), s.max_abs, tr(lang, "at", "位于"),
               at(s.worst_abs));
    fmt::print("  {:<18}{:.3e}\n", tr(lang, "mean abs error", "平均绝对误差"), s.mean_abs);
    fmt::print("  {:<18}max|err| / max|ref| = {:.3e} ({:.3g} eps), ||err||_F / ||ref||_F = {:.3e}\n",
               tr(lang, "norm-wise error", "范数相对误差"), s.normwise, s.normwise / epsilon(dtype), s.frobenius);
    fmt::print("  {:<18}{:.3e} ({:.3g} eps)  {} {}\n", tr(lang, "max rel error", "最大相对误差"), s.max_rel,
               s.max_rel / epsilon(dtype), tr(lang, "at", "位于"), at(s.worst_rel));
    if (s.max_reference > 0 && std::abs(s.worst_rel.reference) < 1e-2 * s.max_reference)
        fmt::print("  {:<18}{}\n", "",
                   fmt::format(fmt::runtime(tr(lang,
                                  "element-wise relative error is large there because |reference| is only {:.2e} "
                                  "of max|ref|; read the norm-wise error",
                                  "该处参考值的绝对值仅为最大值的 {:.2e}，逐元素相对误差因此偏大；请以范数相对误差为准")),
                               std::abs(s.worst_rel.reference) / s.max_reference));
    fmt::print("  {:<18}{:.3e}\n", tr(lang, "mean rel error", "平均相对误差"), s.mean_rel);
    if (s.first_nonfinite)
        fmt::print("  {:<18}{}\n", tr(lang, "not finite", "非有限值"),
                   fmt::format(fmt::runtime(tr(lang, "{} elements (NaN or infinity), the first at {}",
                                               "{} 个元素为 NaN 或无穷大，第一个位于 {}")),
                               s.nonfinite, element_name(s, *s.first_nonfinite)));
}

// The headline: the output's own verdict, unless a stage before it fails the run (then it never
// reads "within").
void print_verdict(const StageErrors& s, const StageErrors* first_outside, DType dtype, Lang lang) {
    std::string verdict;
    if (s.within() && first_outside)
        verdict = fmt::format(fmt::runtime(tr(lang,
                                              "outside at stage {}; the output alone is close (its worst element uses "
                                              "{:.2g}% of its allowance)",
                                              "未通过：{} 阶段超出容差；仅看输出则接近参考值（最差元素占用容差的 {:.2g}%）")),
                              first_outside->name, 100 * std::max(s.worst_allowance.value, 0.0));
    else if (s.within())
        verdict = fmt::format(fmt::runtime(tr(lang, "within (the worst element uses {:.2g}% of its allowance)",
                                              "通过（最差元素占用容差的 {:.2g}%）")),
                              100 * std::max(s.worst_allowance.value, 0.0));
    else if (s.outside == 0)
        verdict = tr(lang, "outside: not every element is finite", "未通过：存在非有限值");
    else
        verdict = fmt::format(fmt::runtime(tr(lang, "outside: {} elements; the worst, {}, is {:.3g}x its allowance",
                                              "未通过：{} 个元素超出；最差的 {} 为容差的 {:.3g} 倍")),
                              s.outside, element_name(s, s.worst_allowance), s.worst_allowance.value);
    fmt::print("  {:<18}{}\n  {:<18}{}\n", tr(lang, "tolerance", "容差"), tolerance_rule(s.tolerance, dtype, lang), "",
               verdict);
}

void print_stages(const std::vector<StageErrors>& stages, DType dtype, Lang lang) {
    fmt::print("{}\n", tr(lang, "stages, in the order the block computes them:", "各阶段（按计算顺序）："));
    fmt::print("  {:<10} {:>17} {:>19} {:>10} {:>12}  {}\n", tr(lang, "stage", "阶段"), "max|err|/max|ref|", "||err||_F/||ref||_F",
               "eps", "rtol", "");
    for (const StageErrors& s : stages)
        fmt::print("  {:<10} {:>17.3e} {:>19.3e} {:>10.3g} {:>12.3g}  {}\n", s.name, s.normwise, s.frobenius,
                   s.normwise / epsilon(dtype), s.tolerance.rtol,
                   s.within() ? tr(lang, "ok", "通过") : tr(lang, "OUTSIDE", "超出"));
    if (const StageErrors* s = first_stage_outside(stages))
        fmt::print("{}\n", fmt::format(fmt::runtime(tr(lang,
                                           "the error first jumps at {}: the bug is in what computes {} from the "
                                           "stages before it",
                                           "误差首先在 {} 处跃升：错误在由前面各阶段计算 {} 的那一步")),
                                       s->name, s->name));
    else
        fmt::print("{}\n", tr(lang, "every stage is within its tolerance", "每个阶段都在容差之内"));
}

Json mistake_keys(const std::vector<PortingMistake>& mistakes) {
    Json keys = Json::array();
    for (const PortingMistake& m : mistakes) keys.push_back(m.key());
    return keys;
}

Json mistakes_json(const MistakeSearch& search) {
    Json j = {{"named_mistakes", Json::array()},
              {"mistakes_not_visible", Json::array()},
              {"mistakes_tried", search.tried.size()},
              {"mistakes_tried_ids", mistake_keys(search.tried)},
              {"mistakes_not_made", mistake_keys(search.not_made)},
              {"mistakes_over_budget", mistake_keys(search.over_budget)}};
    for (const NamedMistake& m : search.named)
        j["named_mistakes"].push_back({{"id", m.mistake.key()}, {"stage", m.stage}, {"normwise_error_eps", m.normwise_eps}});
    for (const PortingMistake& m : search.not_visible)
        j["mistakes_not_visible"].push_back({{"id", m.key()}, {"shown_by", m.shown_by().en}});
    return j;
}

std::string joined_keys(const std::vector<PortingMistake>& mistakes) {
    std::string keys;
    for (const PortingMistake& m : mistakes) keys += (keys.empty() ? "" : ", ") + m.key();
    return keys;
}

// Which mistakes were tried and which were not, and why not.
void print_tried(const MistakeSearch& search, Lang lang) {
    fmt::print("{}\n", tr_format(lang, "porting mistakes tried: {n} of {all}", "试过的移植错误：{all} 个中的 {n} 个",
                                 fmt::arg("n", search.tried.size()), fmt::arg("all", porting_mistakes().size())));
    if (!search.not_made.empty())
        fmt::print("  {}\n    {}\n",
                   tr(lang, "not made: what they change is not in this block (no such rope_scaling, ...):",
                      "未制造：它们改动的东西不在这个块里（没有相应的 rope_scaling 等）："),
                   joined_keys(search.not_made));
    if (!search.over_budget.empty())
        fmt::print("  {}\n    {}\n",
                   tr_format(lang, "not tried: the search's {s:g} s ran out first (--search-mistakes tries them all):",
                             "未尝试：搜索的 {s:g} 秒时间先用完了（加 --search-mistakes 可全部尝试）：",
                             fmt::arg("s", search.budget_seconds)),
                   joined_keys(search.over_budget));
}

void print_mistakes(const MistakeSearch& search, bool within, Lang lang) {
    if (search.named.size() > 1)
        fmt::print("{}\n", tr_format(lang, "{n} porting mistakes fit equally well; this case cannot tell them apart:",
                                     "{n} 个移植错误同样吻合；这个用例无法区分它们：",
                                     fmt::arg("n", search.named.size())));
    for (const NamedMistake& m : search.named)
        fmt::print("{}\n", tr_format(lang, "matches the reference with {changes} ({id}; norm-wise {eps:.3g} eps at {stage})",
                                     "与参考值在此改动下吻合：{changes}（{id}；{stage} 处范数相对误差 {eps:.3g} eps）",
                                     fmt::arg("changes", m.mistake.changes().in(lang)), fmt::arg("id", m.mistake.key()),
                                     fmt::arg("eps", m.normwise_eps), fmt::arg("stage", m.stage)));
    if (!within && search.named.empty() && search.over_budget.empty())
        fmt::print("{}\n", tr_format(lang,
                                     "no porting mistake of the catalogue explains it ({n} tried): look where the "
                                     "error first jumps",
                                     "目录中没有哪个移植错误能解释它（试了 {n} 个）：请查看误差首先跃升之处",
                                     fmt::arg("n", search.tried.size())));
    else if (!within && search.named.empty())
        fmt::print("{}\n", tr_format(lang,
                                     "none of the {n} porting mistakes tried explains it; {left} were not tried (below)",
                                     "试过的 {n} 个移植错误都不能解释它；另有 {left} 个未尝试（见下）",
                                     fmt::arg("n", search.tried.size()), fmt::arg("left", search.over_budget.size())));
    if (!search.not_visible.empty()) {
        fmt::print("{}\n", tr(lang, "not visible on this case (it cannot show them, whatever the implementation does):",
                              "在这个用例上看不出的错误（无论实现如何，它都无法显示）："));
        for (const PortingMistake& m : search.not_visible)
            fmt::print("  {}: {}\n    {} {}\n", m.key(), m.changes().in(lang), tr(lang, "shown by", "可显示它的用例："),
                       m.shown_by().in(lang));
    }
    if (!search.not_made.empty() || !search.over_budget.empty()) print_tried(search, lang);
}

// Prints (or writes as JSON) the comparison against `against` (the case or the layer).
int report(const CompareOptions& o, Lang lang, const std::string& against, const LaidOut& seen,
           const std::vector<StageErrors>& stages, const MistakeSearch& mistakes) {
    const DType dtype = dtype_named(o.dtype);
    const StageErrors& output = *std::find_if(stages.begin(), stages.end(), [](auto& s) { return s.name == "output"; });
    const bool within = std::all_of(stages.begin(), stages.end(), [](auto& s) { return s.within(); });
    const StageErrors* first = first_stage_outside(stages);
    if (o.json) {
        Json j = stage_json(output, dtype);
        j["case"] = against;
        j["dtype"] = dtype_name(dtype);
        j["epsilon"] = epsilon(dtype);
        if (stages.size() > 1) {
            j["stages"] = Json::array();
            for (const StageErrors& s : stages) j["stages"].push_back(stage_json(s, dtype));
            j["first_stage_outside"] = first ? Json(first->name) : Json(nullptr);
        }
        j["within"] = within;
        j["layout"] = layout_name(seen.layout);
        if (seen.detected) j["layout_detected"] = true;
        j.update(mistakes_json(mistakes));
        fmt::print("{}\n", j.dump(2));
        return within ? 0 : 1;
    }
    fmt::print("{} {} ({})\n", o.model.empty() ? tr(lang, "compared with the 50-digit reference of", "对照 50 位精度参考值：")
                                               : tr(lang, "compared with the reference of", "对照参考值："),
               against, dtype_name(dtype));
    print_output_stage(output, dtype, lang);
    print_verdict(output, first, dtype, lang);
    if (stages.size() > 1) print_stages(stages, dtype, lang);
    if (seen.detected)
        fmt::print("{}\n", tr_format(lang,
                                     "Q/K stages read in the {layout} pair layout, where they fit (outside in the "
                                     "case's {own}): the order a port keeping {layout} pairs computes them in; only "
                                     "these stages were mapped, within each head (--layout {own} reads them as they are)",
                                     "Q/K 各阶段按 {layout} 配对布局读取，它们与之吻合（按用例自身的 {own} 布局则超出容差）："
                                     "这正是保持 {layout} 配对的移植给出的顺序；只重排了这些阶段（在每个头之内），"
                                     "--layout {own} 则按原样读取",
                                     fmt::arg("layout", layout_name(seen.layout)),
                                     fmt::arg("own", layout_name(seen.own))));
    print_mistakes(mistakes, within, lang);
    return within ? 0 : 1;
}

int compare(const CompareOptions& o, Lang lang) {
    const DType dtype = dtype_named(o.dtype);
    const BlockCase<Mpfr50> bc = read_case_file<Mpfr50>(o.case_file);
    Trace<Mpfr50> reference;
    block_case_forward(bc, &reference);
    const std::size_t keys = bc.cached.size() + bc.input.rows;
    const LaidOut seen =
        laid_out_like_reference(read_block_output(o.output_file, reference), reference, bc.config, keys, dtype, o);
    const std::vector<StageErrors> stages = compare_stages(seen.given, reference, bc.config, keys, dtype, o.rtol, o.atol);
    return report(o, lang, o.case_file, seen, stages,
                  search_porting_mistakes(bc, seen.given, reference, dtype, o.rtol, o.atol));
}

// A trace at 50 digits (a double-double's value is exact there).
template <class T>
Trace<Mpfr50> trace_at_50(const Trace<T>& trace) {
    Trace<Mpfr50> wide;
    for (const auto& [name, value] : trace) wide.add(name, convert<Mpfr50>(value));
    return wide;
}

// The search on a checkpoint's layer: each mistake's run reuses every product of the reference's
// run whose input it leaves unchanged (the memo), and stops once its stages have decided.
template <class T>
MistakeSearch search_layer(const CompareOptions& o, const LayerRun<T>& layer, ProductMemo<T>& memo,
                           const BlockConfig<Mpfr50>& config, const Trace<Mpfr50>& given,
                           const Trace<Mpfr50>& reference, Lang lang) {
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
    const std::optional<double> budget = o.search_mistakes ? std::nullopt : std::optional(o.search_budget);
    return search_porting_mistakes({made_on(layer.layer.config), run}, config, layer.cached.size() + layer.input.rows,
                                   given, reference,
                                   dtype_named(o.dtype), o.rtol, o.atol, budget);
}

template <class T>
int compare_model_at(const CompareOptions& o, Lang lang) {
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
    const std::vector<StageErrors> stages = compare_stages(seen.given, reference, config, keys, dtype, o.rtol, o.atol);
    const MistakeSearch mistakes = search_layer(o, run, memo, config, seen.given, reference, lang);
    return report(o, lang, fmt::format("{} layer {}", o.model, o.layer), seen, stages, mistakes);
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
                    "on --model, seconds after which the porting-mistake search begins no more mistakes (it lists "
                    "those it did not try)")
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
