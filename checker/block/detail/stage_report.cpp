// compare's numerical report in words: the output's errors and verdict, its rows, the stages.
#include "checker/block/error_report.hpp"
#include "checker/common/i18n.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace blockcheck {

std::string element_name(const StageErrors& s, const ElementAt& e) { return fmt::format("{}[{}][{}]", s.name, e.row, e.col); }

namespace {

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
    fmt::print("  {:<18}{}\n", tr(lang, "per element", "逐元素"),
               tr_format(lang, "at worst {u:.3g} ulps of {dtype}, {d:.3g} significant digits agreed",
                         "最差为 {u:.3g} 个 {dtype} ulp，相同的有效数字 {d:.3g} 位", fmt::arg("u", s.worst_ulps),
                         fmt::arg("dtype", dtype_name(dtype)), fmt::arg("d", s.fewest_digits)));
    if (s.first_nonfinite)
        fmt::print("  {:<18}{}\n", tr(lang, "not finite", "非有限值"),
                   fmt::format(fmt::runtime(tr(lang, "{} elements (NaN or infinity), the first at {}",
                                               "{} 个元素为 NaN 或无穷大，第一个位于 {}")),
                               s.nonfinite, element_name(s, *s.first_nonfinite)));
}

// What a run of the block in the port's own type says about the output's error (its evidence), or
// why there is none.
std::string faithful_evidence(const StageErrors& s, DType dtype, Lang lang) {
    const double eps = epsilon(dtype);
    if (s.faithful < 0)
        return s.tolerance.depth == 0 ? std::string()
                                      : tr_format(lang, "no {dtype} arithmetic here to run the block in: the element-wise "
                                                        "tolerance alone judges it",
                                                  "这里没有 {dtype} 运算可用来运行此块：只按逐元素容差判断",
                                                  fmt::arg("dtype", dtype_name(dtype)));
    return tr_format(lang,
                     "the block run in {dtype} here is off by {f:.3g} eps norm-wise, yours by {m:.3g} eps ({r:.2g} times); "
                     "beyond {k:g} times ({lim:.3g} eps) is more than rounding gives",
                     "此块以 {dtype} 运算时按范数偏差 {f:.3g} eps，你的为 {m:.3g} eps（{r:.2g} 倍）；超过 {k:g} 倍"
                     "（{lim:.3g} eps）就不是舍入所能造成的",
                     fmt::arg("dtype", dtype_name(dtype)), fmt::arg("f", s.faithful / eps), fmt::arg("m", s.normwise / eps),
                     fmt::arg("r", s.normwise / std::max(s.faithful, eps)), fmt::arg("k", faithful_multiple),
                     fmt::arg("lim", s.faithful_limit / eps));
}

// The headline: the output's own verdict, unless a stage before it fails the run (then it never
// reads "within"), with what a run in the port's type gives.
void print_verdict(const StageErrors& s, const StageErrors* first_outside, DType dtype, Lang lang) {
    std::string verdict;
    const double use = 100 * std::max(s.worst_allowance.value, 0.0);
    if (s.within() && first_outside)
        verdict = fmt::format(fmt::runtime(tr(lang,
                                              "outside at stage {}; the output alone is close (its worst element uses "
                                              "{:.2g}% of its allowance)",
                                              "未通过：{} 阶段超出容差；仅看输出则接近参考值（最差元素占用容差的 {:.2g}%）")),
                              first_outside->name, use);
    else if (s.within())
        verdict = fmt::format(fmt::runtime(tr(lang, "within (the worst element uses {:.2g}% of its allowance)",
                                              "通过（最差元素占用容差的 {:.2g}%）")),
                              use);
    else if (s.outside == 0 && s.nonfinite == 0)
        verdict = tr_format(lang,
                            "outside: every element is within the element-wise tolerance ({use:.2g}% of its allowance at "
                            "worst), but the error is {r:.2g} times what {dtype} rounding of this block gives",
                            "未通过：每个元素都在逐元素容差之内（最差占用 {use:.2g}%），但误差是此块 {dtype} 舍入所给误差的 {r:.2g} 倍",
                            fmt::arg("use", use), fmt::arg("r", s.normwise / std::max(s.faithful, epsilon(dtype))),
                            fmt::arg("dtype", dtype_name(dtype)));
    else if (s.outside == 0)
        verdict = tr(lang, "outside: not every element is finite", "未通过：存在非有限值");
    else
        verdict = fmt::format(fmt::runtime(tr(lang, "outside: {} elements; the worst, {}, is {:.3g}x its allowance",
                                              "未通过：{} 个元素超出；最差的 {} 为容差的 {:.3g} 倍")),
                              s.outside, element_name(s, s.worst_allowance), s.worst_allowance.value);
    fmt::print("  {:<18}{}\n  {:<18}{}\n", tr(lang, "tolerance", "容差"), tolerance_rule(s.tolerance, dtype, lang), "",
               verdict);
    if (const std::string evidence = faithful_evidence(s, dtype, lang); !evidence.empty())
        fmt::print("  {:<18}{}\n", "", evidence);
}

}  // namespace

void print_output_report(const StageErrors& output, const StageErrors* first_outside, DType dtype, Lang lang) {
    print_output_stage(output, dtype, lang);
    print_verdict(output, first_outside, dtype, lang);
}

// With the output alone: each row's error, which rows are outside and which within, and the hint
// a right row at position 0 gives.
void print_rows(const StageErrors& s, const std::vector<long>& positions, DType dtype, Lang lang) {
    fmt::print("{}\n", tr(lang, "rows of the output (one a token):", "输出的各行（每行一个词元）："));
    fmt::print("  {:>5} {:>9} {:>12} {:>10} {:>8}\n", tr(lang, "row", "行"), tr(lang, "position", "位置"), "eps",
               "ulps", tr(lang, "digits", "位数"));
    std::vector<std::size_t> outside, within;
    for (std::size_t r = 0; r < s.row_errors.size(); ++r) {
        const RowErrors& row = s.row_errors[r];
        (row.within() ? within : outside).push_back(r);
        fmt::print("  {:>5} {:>9} {:>12.3g} {:>10.3g} {:>8.3g}  {}\n", r, positions.at(r), row.normwise / epsilon(dtype),
                   row.worst_ulps, row.fewest_digits, row.within() ? tr(lang, "ok", "通过") : tr(lang, "OUTSIDE", "超出"));
    }
    if (outside.empty() || within.empty()) return;
    auto listed = [&](const std::vector<std::size_t>& rows) {
        std::string text;
        for (std::size_t r : rows) text += fmt::format("{}{} ({})", text.empty() ? "" : ", ", r, positions.at(r));
        return text;
    };
    fmt::print("{}\n", tr_format(lang, "outside: rows {out}; within: rows {in} (positions in brackets)",
                                  "超出：第 {out} 行；通过：第 {in} 行（括号内为位置）", fmt::arg("out", listed(outside)),
                                  fmt::arg("in", listed(within))));
    // Row 0 at position 0 with no cache: RoPE turns nothing and its query sees its own key alone.
    if (within.size() == 1 && within[0] == 0 && positions.at(0) == 0)
        fmt::print("{}\n", tr(lang,
                               "hint: only the row at position 0 is right. There RoPE turns nothing and the query sees "
                               "only its own key, so a mistake in RoPE (the pairing, theta, V rotated) or in the scores "
                               "(their scale, the mask) cannot show in it; the norms, the weights and the FFN show in "
                               "every row",
                               "提示：只有位置 0 的行是对的。该处 RoPE 不转动，查询只看到它自己的键，所以 RoPE 的错误"
                               "（配对、theta、对 V 旋转）或分数的错误（缩放、掩码）在这一行显不出来；范数、权重和 FFN 的错误每行都会显出"));
}

void print_stages(const std::vector<StageErrors>& stages, DType dtype, Lang lang) {
    const bool run = std::any_of(stages.begin(), stages.end(), [](auto& s) { return s.faithful >= 0; });
    fmt::print("{}\n", tr(lang, "stages, in the order the block computes them:", "各阶段（按计算顺序）："));
    fmt::print("  {:<10} {:>17} {:>19} {:>10} {:>12}{}  {}\n", tr(lang, "stage", "阶段"), "max|err|/max|ref|",
               "||err||_F/||ref||_F", "eps", "rtol", run ? fmt::format(" {:>10}", dtype_name(dtype)) : "", "");
    for (const StageErrors& s : stages)
        fmt::print("  {:<10} {:>17.3e} {:>19.3e} {:>10.3g} {:>12.3g}{}  {}\n", s.name, s.normwise, s.frobenius,
                   s.normwise / epsilon(dtype), s.tolerance.rtol,
                   run ? fmt::format(" {:>10.3g}", s.faithful / epsilon(dtype)) : "",
                   s.within() ? tr(lang, "ok", "通过") : tr(lang, "OUTSIDE", "超出"));
    if (run)
        fmt::print("{}\n", tr_format(lang,
                                      "({dtype}: the block run in {dtype} here, its norm-wise error in eps; a stage "
                                      "more than {k:g} times that is outside)",
                                      "（{dtype}：此块以 {dtype} 运算时的范数误差，单位 eps；超过其 {k:g} 倍的阶段为超出）",
                                      fmt::arg("dtype", dtype_name(dtype)), fmt::arg("k", faithful_multiple)));
    if (const StageErrors* s = first_stage_outside(stages))
        fmt::print("{}\n", fmt::format(fmt::runtime(tr(lang,
                                           "the error first jumps at {}: the bug is in what computes {} from the "
                                           "stages before it",
                                           "误差首先在 {} 处跃升：错误在由前面各阶段计算 {} 的那一步")),
                                       s->name, s->name));
    else
        fmt::print("{}\n", tr(lang, "every stage is within its tolerance", "每个阶段都在容差之内"));
}

}  // namespace blockcheck
