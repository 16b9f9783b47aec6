// compare's words on the porting-mistake search: the mistakes the output matches, the suspects,
// those the dtype's tolerance cannot tell, those the case cannot show at any precision (the ones
// that cannot apply to the configuration folded into one line), and what was not tried.
#include "checker/block/mistake_match.hpp"
#include "checker/common/i18n.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

Json mistake_keys(const std::vector<PortingMistake>& mistakes) {
    Json keys = Json::array();
    for (const PortingMistake& m : mistakes) keys.push_back(m.key());
    return keys;
}

std::string joined_keys(const std::vector<PortingMistake>& mistakes) {
    std::string keys;
    for (const PortingMistake& m : mistakes) keys += (keys.empty() ? "" : ", ") + m.key();
    return keys;
}

// Which mistakes were tried and which were not, and why not.
void print_tried(const MistakeSearch& search, Lang lang) {
    fmt::print("{}{}\n", tr_format(lang, "porting mistakes tried: {n} of {all}", "试过的移植错误：{all} 个中的 {n} 个",
                                   fmt::arg("n", search.tried.size()), fmt::arg("all", porting_mistakes().size())),
               search.decided_on_first_rows == 0
                   ? std::string()
                   : tr_format(lang, " ({k} ruled out by their first rows alone)", "（其中 {k} 个仅凭前几行即被排除）",
                               fmt::arg("k", search.decided_on_first_rows)));
    if (!search.not_made.empty())
        fmt::print("  {}\n    {}\n",
                   tr(lang, "not made: what they change is not in this block (no such rope_scaling, ...):",
                      "未制造：它们改动的东西不在这个块里（没有相应的 rope_scaling 等）："),
                   joined_keys(search.not_made));
    if (!search.over_budget.empty())
        fmt::print("  {}\n    {}\n",
                   tr_format(lang, "not tried: compare's {s:g} s (--search-budget) ran out first (--search-mistakes tries them all):",
                             "未尝试：compare 的 {s:g} 秒（--search-budget）先用完了（加 --search-mistakes 可全部尝试）：",
                             fmt::arg("s", search.budget_seconds)),
                   joined_keys(search.over_budget));
}

void print_named(const MistakeSearch& search, bool within, Lang lang) {
    if (search.named.size() > 1)
        fmt::print("{}\n", tr_format(lang, "{n} porting mistakes fit equally well; this case cannot tell them apart:",
                                     "{n} 个移植错误同样吻合；这个用例无法区分它们：",
                                     fmt::arg("n", search.named.size())));
    for (const NamedMistake& m : search.named)
        fmt::print("{}\n", tr_format(lang,
                                     "the bug: {changes} ({id}): your output agrees with the block with this mistake "
                                     "made (norm-wise {eps:.3g} eps from it at {stage}), not with the reference",
                                     "错误所在：{changes}（{id}）：你的输出与犯了这个错误的块吻合（{stage} 处按范数相差 "
                                     "{eps:.3g} eps），而不是与参考值吻合",
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
}

// What the dtype cannot tell: each mistake's move against the output's own error; the suspects first.
void print_below_tolerance(const MistakeSearch& search, DType dtype, Lang lang) {
    if (search.below_tolerance.empty()) return;
    const std::string advice = dtype == DType::float64
                                   ? std::string(tr(lang, "a case that shows it more tells (below)", "能更明显显示它的用例可以区分（见下）"))
                                   : std::string(tr(lang, "rerun your port in float64 to tell", "请用 float64 重新运行你的移植来区分"));
    for (const HiddenMistake& m : search.below_tolerance)
        if (m.suspect)
            fmt::print("{}\n", tr_format(lang,
                                         "suspect: {changes} ({id}): it would move the output by about {d:.3g} eps and "
                                         "your error is {e:.3g} eps; your output is {p:.3g} eps from the block with it "
                                         "made, nearer than to the reference; {advice}",
                                         "嫌疑：{changes}（{id}）：它会使输出移动约 {d:.3g} eps，你的误差为 {e:.3g} eps；"
                                         "你的输出与犯了这个错误的块相差 {p:.3g} eps，比与参考值更近；{advice}",
                                         fmt::arg("changes", m.mistake.changes().in(lang)), fmt::arg("id", m.mistake.key()),
                                         fmt::arg("d", m.displacement_eps), fmt::arg("e", search.given_error_eps),
                                         fmt::arg("p", m.from_given_eps), fmt::arg("advice", advice)));
    fmt::print("{}\n", tr_format(lang, "not distinguishable at {dtype}'s tolerance (your error is {e:.3g} eps; {advice}):",
                                 "在 {dtype} 的容差下无法区分（你的误差为 {e:.3g} eps；{advice}）：",
                                 fmt::arg("dtype", dtype_name(dtype)), fmt::arg("e", search.given_error_eps),
                                 fmt::arg("advice", advice)));
    for (const HiddenMistake& m : search.below_tolerance) {
        fmt::print("  {}: {}\n    {}\n", m.mistake.key(), m.mistake.changes().in(lang),
                   tr_format(lang, "it would move the output by about {d:.3g} eps; your output is {p:.3g} eps from it{s}",
                             "它会使输出移动约 {d:.3g} eps；你的输出与之相差 {p:.3g} eps{s}",
                             fmt::arg("d", m.displacement_eps), fmt::arg("p", m.from_given_eps),
                             fmt::arg("s", m.suspect ? tr(lang, " (a suspect)", "（嫌疑）") : "")));
        if (dtype == DType::float64)
            fmt::print("    {} {}\n", tr(lang, "shown more by", "更能显示它的用例："), m.mistake.shown_by().in(lang));
    }
}

// What this case cannot show at any precision; those needing a RoPE scaling it lacks, in one line.
void print_not_visible(const MistakeSearch& search, const BlockConfig<Mpfr50>& config, Lang lang) {
    std::vector<PortingMistake> absent, shown;
    for (const PortingMistake& m : search.not_visible) (needs_absent_scaling(m, config) ? absent : shown).push_back(m);
    if (!shown.empty()) {
        fmt::print("{}\n", tr(lang,
                              "not visible on this case at any precision (the block with each made computes the same "
                              "numbers here, to the reference's digits):",
                              "在这个用例上以任何精度都看不出的错误（犯了其中任一个的块在这里算出同样的数，直到参考值的位数）："));
        for (const PortingMistake& m : shown)
            fmt::print("  {}: {}\n    {} {}\n", m.key(), m.changes().in(lang), tr(lang, "shown by", "可显示它的用例："),
                       m.shown_by().in(lang));
    }
    if (!absent.empty())
        fmt::print("{}\n", tr_format(lang, "cannot apply here, this block has no RoPE scaling of their type: {ids}",
                                     "在此无从犯起，这个块没有相应类型的 RoPE 缩放：{ids}", fmt::arg("ids", joined_keys(absent))));
}

}  // namespace

void print_mistake_search(const MistakeSearch& search, const BlockConfig<Mpfr50>& config, bool within, DType dtype,
                          Lang lang) {
    print_named(search, within, lang);
    print_below_tolerance(search, dtype, lang);
    print_not_visible(search, config, lang);
    if (!search.not_made.empty() || !search.over_budget.empty()) print_tried(search, lang);
}

nlohmann::ordered_json mistake_search_json(const MistakeSearch& search, const BlockConfig<Mpfr50>& config) {
    Json j = {{"named_mistakes", Json::array()},
              {"suspects", Json::array()},
              {"mistakes_below_tolerance", Json::array()},
              {"mistakes_not_visible", Json::array()},
              {"mistakes_tried", search.tried.size()},
              {"mistakes_tried_ids", mistake_keys(search.tried)},
              {"mistakes_ruled_out_on_first_rows", search.decided_on_first_rows},
              {"mistakes_not_made", mistake_keys(search.not_made)},
              {"mistakes_over_budget", mistake_keys(search.over_budget)}};
    for (const NamedMistake& m : search.named)
        j["named_mistakes"].push_back({{"id", m.mistake.key()}, {"stage", m.stage}, {"normwise_error_eps", m.normwise_eps}});
    for (const HiddenMistake& m : search.below_tolerance) {
        const Json entry = {{"id", m.mistake.key()},
                            {"displacement_eps", m.displacement_eps},
                            {"from_given_eps", m.from_given_eps},
                            {"suspect", m.suspect}};
        j["mistakes_below_tolerance"].push_back(entry);
        if (m.suspect) j["suspects"].push_back(entry);
    }
    for (const PortingMistake& m : search.not_visible)
        j["mistakes_not_visible"].push_back(
            {{"id", m.key()}, {"shown_by", m.shown_by().en}, {"cannot_apply", needs_absent_scaling(m, config)}});
    return j;
}

}  // namespace blockcheck
