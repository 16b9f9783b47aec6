#include "checker/insight/insight_html.hpp"
#include "checker/insight/insight_trace.hpp"

#include "checker/insight/insight_stats.hpp"
#include "checker/outputs/student_id.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace blockcheck {

namespace {

const char* const mistake_colours[] = {"#e8590c", "#f59f00", "#ae3ec9", "#d6336c", "#7950f2", "#a0522d", "#1098ad", "#f783ac"};

// The colour of an outcome; mistakes by their rank over the class (`mistakes`: ids, most common first).
std::string colour_of(const std::string& outcome, const std::vector<std::string>& mistakes) {
    if (outcome == outcome::right) return "#2f9e6b";
    if (outcome == outcome::inexact) return "#96d5a8";
    if (outcome == outcome::follows) return "#ffc9c9";
    if (outcome == outcome::other_wrong) return "#c92a2a";
    if (outcome == outcome::failed) return "#495057";
    if (outcome == outcome::not_done) return "#d0d5dc";
    if (outcome == outcome::grader_fault) return "#91a7ff";
    const auto at = static_cast<std::size_t>(std::find(mistakes.begin(), mistakes.end(), outcome) - mistakes.begin());
    return mistake_colours[at % std::size(mistake_colours)];
}

std::string label_of(const std::string& outcome, Lang lang) {
    if (outcome.starts_with("mistake:")) return outcome.substr(8);
    if (outcome == outcome::right) return std::string(tr(lang, "right", "正确"));
    if (outcome == outcome::inexact) return std::string(tr(lang, "float (accepted)", "float 精度（通过）"));
    if (outcome == outcome::follows) return std::string(tr(lang, "follows an earlier slip", "随前面的错误而错"));
    if (outcome == outcome::other_wrong) return std::string(tr(lang, "other wrong", "其他错误"));
    if (outcome == outcome::failed) return std::string(tr(lang, "program failed", "程序失败"));
    if (outcome == outcome::not_done) return std::string(tr(lang, "not done", "未完成"));
    return std::string(tr(lang, "grader fault", "评分程序故障"));
}

std::string pct(double share) { return fmt::format("{:.0f}%", 100 * share); }

// An exercise's outcomes summed over its parts (student-parts), in drawing order.
std::vector<std::pair<std::string, std::size_t>> exercise_outcomes(const Insight& in, const std::string& exercise) {
    std::map<std::string, std::size_t> sums;
    std::vector<std::string> order;
    for (const PartInsight& p : in.parts)
        if (p.exercise == exercise)
            for (const OutcomeGroup& g : p.outcomes) {
                if (!sums.contains(g.outcome)) order.push_back(g.outcome);
                sums[g.outcome] += g.students.size();
            }
    static const std::vector<std::string> fixed = {outcome::right, outcome::inexact};
    std::vector<std::pair<std::string, std::size_t>> out;
    auto add = [&](const std::string& o) {
        if (sums.contains(o)) out.emplace_back(o, sums[o]);
    };
    for (const std::string& o : fixed) add(o);
    std::vector<std::string> mistakes;
    for (const std::string& o : order)
        if (o.starts_with("mistake:")) mistakes.push_back(o);
    std::stable_sort(mistakes.begin(), mistakes.end(), [&](auto& a, auto& b) { return sums[a] > sums[b]; });
    for (const std::string& o : mistakes) add(o);
    for (const char* o : {outcome::follows, outcome::other_wrong, outcome::failed, outcome::not_done, outcome::grader_fault}) add(o);
    return out;
}

std::vector<std::string> exercises_of(const Insight& in) {
    std::vector<std::string> out;
    for (const PartInsight& p : in.parts)
        if (out.empty() || out.back() != p.exercise) out.push_back(p.exercise);
    return out;
}

// Every mistake of the class, most student-parts first (then by id).
std::vector<std::string> mistakes_by_count(const Insight& in) {
    std::map<std::string, std::size_t> sums;
    for (const PartInsight& p : in.parts)
        for (const OutcomeGroup& g : p.outcomes)
            if (g.outcome.starts_with("mistake:")) sums[g.outcome] += g.students.size();
    std::vector<std::string> out;
    for (auto& [o, n] : sums) out.push_back(o);
    std::stable_sort(out.begin(), out.end(), [&](auto& a, auto& b) { return sums[a] > sums[b]; });
    return out;
}

std::string stacked_bars(const Insight& in, Lang lang) {
    const std::vector<std::string> exercises = exercises_of(in), mistakes = mistakes_by_count(in);
    const double row = 26, left = 230, width = 480;
    std::string svg = fmt::format(
        "<svg id=\"insight-outcomes\" class=\"chart wide\" viewBox=\"0 0 720 {:.0f}\" role=\"img\" aria-labelledby=\"outcomes-title\">"
        "<title id=\"outcomes-title\">{}</title>\n",
        row * double(exercises.size()) + 10, html_text(tr(lang, "Outcomes of every answer part, per exercise", "每道练习各小题的结果")));
    for (std::size_t i = 0; i < exercises.size(); ++i) {
        const auto outcomes = exercise_outcomes(in, exercises[i]);
        std::size_t total = 0;
        for (auto& [o, n] : outcomes) total += n;
        const double y = 5 + row * double(i);
        svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" class=\"label\">{}</text>", left - 6, y + 15, html_text(exercises[i]));
        double x = left;
        for (auto& [o, n] : outcomes) {
            const double w = total ? width * double(n) / double(total) : 0;
            svg += fmt::format("<rect x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"18\" fill=\"{}\"><title>{}: {} ({})</title></rect>", x, y,
                               w, colour_of(o, mistakes), html_text(label_of(o, lang)), n, pct(double(n) / double(total)));
            x += w;
        }
        svg += "\n";
    }
    svg += "</svg>\n<p class=\"legend\">";
    std::vector<std::string> legend = {outcome::right, outcome::inexact};
    legend.insert(legend.end(), mistakes.begin(), mistakes.end());
    for (const char* o : {outcome::follows, outcome::other_wrong, outcome::failed, outcome::not_done, outcome::grader_fault}) legend.push_back(o);
    std::erase_if(legend, [&](const std::string& o) {  // only what the class has
        return std::none_of(in.parts.begin(), in.parts.end(), [&](const PartInsight& p) { return p.count(o) > 0; });
    });
    for (const std::string& o : legend)
        svg += fmt::format("<span class=\"key\"><span class=\"swatch\" style=\"background:{}\"></span>{}</span> ", colour_of(o, mistakes),
                           html_text(label_of(o, lang)));
    return svg + "</p>\n";
}

std::string mistakes_table(const Insight& in, Lang lang) {
    std::string html = fmt::format(
        "<table id=\"insight-parts\"><thead><tr><th>{}</th><th class=\"num\">{}</th><th class=\"num\">{}</th><th>{}</th></tr></thead><tbody>\n",
        tr(lang, "exercise.part", "练习.小题"), tr(lang, "right", "正确"), tr(lang, "float", "float"),
        tr(lang, "wrong answers: classic mistakes (share of the class)", "错误答案：经典错误（占全班比例）"));
    for (const PartInsight& p : in.parts) {
        std::string mistakes;
        for (const OutcomeGroup& g : p.outcomes)
            if (g.outcome.starts_with("mistake:") || g.outcome == outcome::other_wrong)
                mistakes += fmt::format("{}<code>{}</code> {}", mistakes.empty() ? "" : ", ", html_text(label_of(g.outcome, lang)),
                                        pct(double(g.students.size()) / double(p.students)));
        if (p.unexplained)
            mistakes += fmt::format(" <strong class=\"warn\">{}</strong>",
                                    tr(lang, "most wrong answers match no known mistake", "多数错误答案不符合已知错误"));
        html += fmt::format("<tr><td><code>{}.{}</code></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
                            html_text(p.exercise), html_text(p.part), pct(double(p.count(outcome::right)) / double(std::max<std::size_t>(p.students, 1))),
                            pct(double(p.count(outcome::inexact)) / double(std::max<std::size_t>(p.students, 1))), mistakes.empty() ? "–" : mistakes);
    }
    return html + "</tbody></table>\n";
}

std::string scatter(const Insight& in, Lang lang) {
    // x: difficulty 0..1 over 60..660; y: point-biserial -1..1 over 250..10
    std::string svg = fmt::format(
        "<svg id=\"insight-scatter\" class=\"chart\" viewBox=\"0 0 700 300\" role=\"img\" aria-labelledby=\"scatter-title\">"
        "<title id=\"scatter-title\">{}</title>\n"
        "<rect x=\"60\" y=\"{:.1f}\" width=\"600\" height=\"{:.1f}\" class=\"zone\"/>"
        "<line x1=\"60\" y1=\"250\" x2=\"660\" y2=\"250\" class=\"axis\"/><line x1=\"60\" y1=\"10\" x2=\"60\" y2=\"250\" class=\"axis\"/>"
        "<line x1=\"60\" y1=\"130\" x2=\"660\" y2=\"130\" class=\"grid\"/>\n",
        html_text(tr(lang, "Difficulty (share right) against discrimination (point-biserial)", "通过率与区分度（点二列相关）")),
        130 - 120 * discrimination_flag_below, 120 * (1 + discrimination_flag_below));
    for (int t = 0; t <= 4; ++t)
        svg += fmt::format("<text x=\"{}\" y=\"266\" class=\"tick\">{}%</text><text x=\"52\" y=\"{}\" class=\"tick end\">{}</text>", 60 + 150 * t,
                           25 * t, 254 - 60 * t, fmt::format("{:g}", -1 + 0.5 * t));
    svg += fmt::format("<text x=\"360\" y=\"290\" class=\"tick\">{}</text>\n", tr(lang, "difficulty: share of the class right", "通过率：全班答对的比例"));
    for (const PartInsight& p : in.parts) {
        if (!p.point_biserial) continue;
        const double x = 60 + 600 * p.difficulty, y = 130 - 120 * *p.point_biserial;
        svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" class=\"{}\"><title>{}.{}: {} {}, r = {:.2f}</title></circle>", x, y,
                           p.flagged ? "dot flagged" : "dot", html_text(p.exercise), html_text(p.part), pct(p.difficulty),
                           tr(lang, "right", "正确"), *p.point_biserial);
        if (p.flagged) svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"dotlabel\">{}</text>", x + 7, y + 4, html_text(p.part));
        svg += "\n";
    }
    return svg + "</svg>\n";
}

std::string flagged_table(const Insight& in, Lang lang) {
    std::string rows;
    for (const PartInsight& p : in.parts)
        if (p.flagged)
            rows += fmt::format("<tr><td><code>{}.{}</code></td><td class=\"num\">{}</td><td class=\"num\">{:.2f}</td><td class=\"num\">{}</td></tr>\n",
                                html_text(p.exercise), html_text(p.part), pct(p.difficulty), *p.point_biserial,
                                p.upper_lower ? fmt::format("{:.2f}", *p.upper_lower) : "–");
    if (rows.empty()) return fmt::format("<p>{}</p>\n", tr(lang, "No part has a discrimination below 0.1.", "没有区分度低于 0.1 的小题。"));
    return fmt::format("<table id=\"insight-flagged\"><thead><tr><th>{}</th><th class=\"num\">{}</th><th class=\"num\">{}</th><th class=\"num\">{}</th></tr></thead><tbody>\n{}</tbody></table>\n",
                       tr(lang, "flagged part", "标记的小题"), tr(lang, "difficulty", "通过率"), tr(lang, "point-biserial", "点二列相关"),
                       tr(lang, "upper-lower 27%", "高低分组 27%"), rows);
}

std::string variant_bars(const Insight& in, Lang lang) {
    if (in.variant_parameters.empty())
        return fmt::format("<p>{}</p>\n", in.variants ? tr(lang, "No variant parameter took two values or more among the students.", "没有变体参数在学生之间取到两个以上的值。")
                                                      : tr(lang, "The class was graded on the book's inputs (no --variants).", "本班使用书中的输入评分（未使用 --variants）。"));
    std::string html;
    for (const VariantInsight& v : in.variant_parameters) {
        const double row = 20;
        html += fmt::format("<svg class=\"chart variant\" viewBox=\"0 0 620 {:.0f}\" role=\"img\"><title>{}: {}</title>"
                            "<text x=\"0\" y=\"14\" class=\"label start\">{} · {}</text>\n",
                            row * double(v.values.size()) + 24, html_text(v.exercise), html_text(v.parameter), html_text(v.exercise), html_text(v.parameter));
        for (std::size_t i = 0; i < v.values.size(); ++i) {
            const VariantValue& x = v.values[i];
            const double share = x.students ? double(x.right) / double(x.students) : 0, y = 22 + row * double(i);
            html += fmt::format("<text x=\"196\" y=\"{:.0f}\" class=\"label\">{}</text><rect x=\"200\" y=\"{:.0f}\" width=\"300\" height=\"14\" class=\"track\"/>"
                                "<rect x=\"200\" y=\"{:.0f}\" width=\"{:.1f}\" height=\"14\" fill=\"#2f9e6b\"/><text x=\"506\" y=\"{:.0f}\" class=\"label start\">{} ({}/{})</text>\n",
                                y + 11, html_text(printable_id(x.value, 40)), y, y, 300 * share, y + 11, pct(share), x.right, x.students);
        }
        html += "</svg>\n";
    }
    return html;
}

std::string students_text(const std::vector<std::string>& students) {
    std::string out;
    for (const std::string& s : students) out += (out.empty() ? "" : ", ") + html_text(printable_id(s, 80));
    return out;
}

std::string shared_sections(const Insight& in, Lang lang) {
    std::string html = fmt::format("<p class=\"caveat\">{}</p>\n",
        tr(lang,
           "These are groups for a person to look at, never a verdict, and no score changes because of them. A wrong answer shared to every "
           "printed digit (the book's inputs, at least 6 digits, no known mistake explains it) is rarely a coincidence, but a wrong formula "
           "passed round a study group, a shared tutor or a forum post gives the same. Programs that are the same after removing comments and "
           "whitespace and renaming identifiers can be copies, or short exercises written from one template: honest students converge on the "
           "same few lines, so a group whose programs are all right is weak evidence. Programs that differ in structure are never grouped, so "
           "this cannot show a copy that was rewritten, and it says nothing about who copied from whom.",
           "以下分组仅供人工查看，不是结论，也不会因此改变任何分数。在书中输入上，错误答案的每一位打印数字都相同（至少 6 位数字，且不符合任何已知错误）很少是巧合，"
           "但学习小组传开的错误公式、同一位辅导老师或同一篇论坛帖子也会造成这种情况。去掉注释和空白、重命名标识符后相同的程序可能是抄袭，"
           "也可能是从同一模板写出的短练习：诚实的学生会写出几乎相同的几行代码，因此全部正确的程序组只是弱证据。结构不同的程序永远不会被分到一组，"
           "所以这里看不出被改写过的抄袭，也看不出谁抄了谁。"));
    html += fmt::format("<h3>{}</h3>\n", tr(lang, "Identical wrong answers", "相同的错误答案"));
    if (in.shared_answers.empty()) html += fmt::format("<p>{}</p>\n", tr(lang, "None.", "无。"));
    else {
        html += fmt::format("<table id=\"shared-answers\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>\n",
                            tr(lang, "exercise.part", "练习.小题"), tr(lang, "the answer printed", "打印的答案"), tr(lang, "students", "学生"),
                            tr(lang, "departs at", "偏离于"), tr(lang, "nearest mistakes (relative distance)", "最接近的错误（相对距离）"));
        for (const SharedAnswer& a : in.shared_answers)
            html += fmt::format("<tr><td><code>{}.{}</code></td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>\n", html_text(a.exercise),
                                html_text(a.part), html_text(printable_id(a.answer, 120)), students_text(a.students),
                                a.departs_at.empty() ? "" : fmt::format("<code>{}</code> ({}/{})", html_text(a.departs_at), a.departing, a.students.size()),
                                html_text(nearest_text(a.closest, a.departs_at, a.closest_at_step, lang)));
        html += "</tbody></table>\n";
    }
    html += fmt::format("<h3>{}</h3>\n", tr(lang, "Identical programs", "相同的程序"));
    if (in.shared_code.empty()) html += fmt::format("<p>{}</p>\n", tr(lang, "None.", "无。"));
    else {
        html += fmt::format("<table id=\"shared-code\"><thead><tr><th>{}</th><th class=\"num\">{}</th><th>{}</th><th>{}</th></tr></thead><tbody>\n",
                            tr(lang, "exercise", "练习"), tr(lang, "tokens", "词元数"), tr(lang, "answers", "答案"), tr(lang, "students", "学生"));
        for (const SharedCode& g : in.shared_code)
            html += fmt::format("<tr><td><code>{}</code></td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>\n", html_text(g.exercise), g.tokens,
                                g.all_right ? tr(lang, "all right (weak evidence)", "全部正确（弱证据）") : tr(lang, "some wrong", "有错误"),
                                students_text(g.students));
        html += "</tbody></table>\n";
    }
    for (const SharedCode& g : in.common_code)
        html += fmt::format("<p class=\"msg\">{}</p>\n", tr_format(lang, "{exercise}: {n} programs share one normal form ({tokens} tokens): a common solution, not listed.",
                                                                  "{exercise}：{n} 个程序规范化后相同（{tokens} 个词元）：常见写法，不列出。",
                                                                  fmt::arg("exercise", html_text(g.exercise)), fmt::arg("n", g.students.size()),
                                                                  fmt::arg("tokens", g.tokens)));
    return html;
}

}  // namespace

std::string html_text(std::string_view text) {
    std::string out;
    for (char c : printable_text(text)) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string insight_css() {
    return ".wide{max-width:980px}.label{font-size:12px;text-anchor:end;fill:#1d2433}.start{text-anchor:start}.end{text-anchor:end}"
           ".legend{font-size:13px}.key{white-space:nowrap;margin-right:10px}"
           ".swatch{display:inline-block;width:11px;height:11px;margin-right:4px;vertical-align:-1px;border-radius:2px}"
           ".zone{fill:#fff3bf}.grid{stroke:#bbb;stroke-dasharray:3 3}.dot{fill:#3b6fd8;fill-opacity:.75}.flagged{fill:#c92a2a}"
           ".dotlabel{font-size:11px;fill:#c92a2a}.track{fill:#e8ecf2}.variant{max-width:620px;display:block;margin:6px 0}"
           ".warn{color:#c92a2a;font-weight:600}.caveat{background:#f4f6f9;border-left:4px solid #91a7ff;padding:8px 12px}"
           "@media print{*{-webkit-print-color-adjust:exact;print-color-adjust:exact}h2{break-after:avoid}svg,table{break-inside:avoid}}\n";
}

// The exercises that printed the same text on the book's inputs and on the student's variant: what
// was observed, a row a student and exercise, for a person to look at.
static std::string printed_constants_section(const Insight& in, Lang lang) {
    std::string html = fmt::format(
        "<h2 id=\"insight-constants\">{}</h2>\n<p>{}</p>\n",
        tr(lang, "The same text on the book's inputs and on the variant", "书中的输入和变体上输出相同"),
        tr(lang, "These parts printed exactly the same text on the book's inputs (right there) and on the student's own variant "
                 "(wrong there): the book's numbers printed instead of computed, perhaps. What was observed, for a person to look "
                 "at; not a verdict.",
           "这些小题在书中的输入（在那里正确）和学生自己的变体（在那里错误）上输出了完全相同的文字：也许是直接输出了书上的数而没有计算。"
           "这只是观察到的情况，供人工查看，不是结论。"));
    if (in.printed_constants.empty()) return html + fmt::format("<p>{}</p>\n", tr(lang, "None.", "无。"));
    html += tr(lang, "<table id=\"printed-constants\"><thead><tr><th>student</th><th>exercise</th><th>parts</th><th>variant</th></tr></thead><tbody>\n",
               "<table id=\"printed-constants\"><thead><tr><th>学生</th><th>练习</th><th>小题</th><th>变体</th></tr></thead><tbody>\n");
    for (const PrintedConstants& c : in.printed_constants) {
        std::string parts;
        for (const std::string& p : c.parts) parts += (parts.empty() ? "" : ", ") + p;
        html += fmt::format("<tr><td>{}</td><td><code>{}</code></td><td><code>{}</code></td><td>{}</td></tr>\n",
                            html_text(printable_id(c.student)), html_text(c.exercise), html_text(parts),
                            c.variant ? std::to_string(*c.variant) : "");
    }
    return html + "</tbody></table>\n";
}

std::string insight_html(const Insight& in, Lang lang) {
    std::string html = fmt::format("<h2 id=\"insight-mistakes\">{}</h2>\n<p>{}</p>\n", tr(lang, "What the class got wrong", "全班错在哪里"),
                                   tr(lang, "Each bar is one exercise: every student's every answer part, by outcome. The table names the classic "
                                            "mistakes per part; insight.csv lists the students of each.",
                                      "每条横条是一道练习：每位学生每个小题的结果。下表按小题列出经典错误；各错误的学生名单见 insight.csv。"));
    html += stacked_bars(in, lang) + mistakes_table(in, lang);
    html += fmt::format("<h2 id=\"insight-items\">{}</h2>\n<p>{}</p>\n", tr(lang, "Item statistics", "题目统计"),
                        tr(lang, "Difficulty is the share of the class with the part right; discrimination is the point-biserial correlation of "
                                 "the part with the rest of the total. Parts in the shaded band (below 0.1) are missed by strong students as "
                                 "often as by weak ones: often a problem of the prompt.",
                           "通过率是全班答对该小题的比例；区分度是该小题与其余总分的点二列相关。阴影带（低于 0.1）中的小题，强弱学生答错的比例相近：常常是题目表述的问题。"));
    html += scatter(in, lang) + flagged_table(in, lang);
    html += fmt::format("<h2 id=\"insight-variants\">{}</h2>\n<p>{}</p>\n", tr(lang, "Variants", "变体"),
                        tr(lang, "The share of students with every part of the exercise right, per value of each parameter that differs between students.",
                           "按学生之间不同的每个参数取值，全部小题答对的学生比例。"));
    html += variant_bars(in, lang);
    html += printed_constants_section(in, lang);
    html += fmt::format("<h2 id=\"insight-shared\">{}</h2>\n", tr(lang, "Answers shared without a reason", "无来由的相同答案"));
    return html + shared_sections(in, lang);
}

}  // namespace blockcheck
