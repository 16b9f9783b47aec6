// report.html: rendered from the same records as summary.txt, as static HTML with inline SVG.
#include "checker/insight/report_html.hpp"

#include "checker/insight/insight_html.hpp"
#include "checker/outputs/student_id.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

namespace blockcheck {
namespace {

std::string esc(std::string_view text) { return html_text(text); }

double exercise_score(const StudentRecord& s, const std::string& id) {
    for (const ExerciseRecord& e : s.exercises)
        if (e.id == id) return e.score;
    return 0;
}

// Ten bins of the total: [0, 10%), ..., [90%, 100%]; as an SVG bar chart.
std::string histogram_svg(const std::vector<StudentRecord>& students, double max_total) {
    std::array<int, 10> bins{};
    for (const StudentRecord& s : students) {
        const double f = max_total > 0 ? s.score / max_total : 0;
        ++bins[static_cast<std::size_t>(std::clamp(static_cast<int>(f * 10), 0, 9))];
    }
    const int top = std::max(1, *std::max_element(bins.begin(), bins.end()));
    std::string desc;
    for (std::size_t i = 0; i < bins.size(); ++i)
        desc += fmt::format("{}{}-{}%: {}", i ? ", " : "", i * 10, i == 9 ? 100 : i * 10 + 10, bins[i]);
    std::string svg = fmt::format(
        "<svg id=\"score-histogram\" class=\"chart\" viewBox=\"0 0 520 240\" role=\"img\" aria-labelledby=\"hist-title hist-desc\">"
        "<title id=\"hist-title\">Histogram of total scores</title><desc id=\"hist-desc\">Students per tenth of the maximum: {}</desc>\n",
        esc(desc));
    svg += "<line x1=\"40\" y1=\"200\" x2=\"510\" y2=\"200\" class=\"axis\"/>\n";
    for (std::size_t i = 0; i < bins.size(); ++i) {
        const double h = 170.0 * bins[i] / top, x = 45 + 46.0 * static_cast<double>(i);
        svg += fmt::format("<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"40\" height=\"{:.1f}\"><title>{}-{}%: {}</title></rect>", x,
                           200 - h, h, i * 10, i == 9 ? 100 : i * 10 + 10, bins[i]);
        if (bins[i]) svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"count\">{}</text>", x + 20, 195 - h, bins[i]);
        svg += fmt::format("<text x=\"{:.1f}\" y=\"218\" class=\"tick\">{}%</text>\n", x + 20, i * 10);
    }
    svg += "<text x=\"275\" y=\"236\" class=\"tick\">share of the maximum total</text></svg>\n";
    return svg;
}

const ExerciseRecord* exercise_of(const StudentRecord& s, const std::string& id) {
    for (const ExerciseRecord& e : s.exercises)
        if (e.id == id) return &e;
    return nullptr;
}

// An exercise's verdict for the TA: its status, and the first part not correct with its message
// and each part wrong on the book's inputs too with that feedback, then the note (compiler
// messages, how the program ended, a misnamed file).
std::pair<std::string, std::string> exercise_verdict(const ExerciseRecord& e, Lang lang) {
    for (const PartRecord& p : e.parts)
        if (p.verdict != "correct") {
            std::string message = p.name + ": " + p.message;
            if (!p.diagnosis_message.empty()) message += " (" + p.diagnosis_message + ")";
            for (const PartRecord& b : e.book_parts) message += "\n" + b.name + ": " + book_feedback_text(e, b.name, lang);
            if (!e.note.empty()) message += "\n" + e.note;
            return {p.verdict, message.substr(0, 2000)};
        }
    return {e.status, ""};
}

// Whose build decided the verdict: "clang", "g++", "g++ (after clang)"; "" when none compiled.
std::string compiler_text(const ExerciseRecord& e, Lang lang) {
    if (!e.redecided) return e.compiler;
    return e.compiler + std::string(tr(lang, " (after clang)", "（clang 之后）"));
}

// One student: a <details> with the name and points, a row per exercise of the assignment (its
// verdict and message), then the misnamed files and notes.
std::string student_html(const std::vector<const Exercise*>& exercises, const StudentRecord& s, Lang lang) {
    std::string html = fmt::format("<details class=\"student\" id=\"student-{}\"><summary><b>{}</b> {}/{}{}</summary>\n",
                                   esc(student_file_stem(s.student)), esc(printable_id(s.student)), score_text(s.score),
                                   score_text(s.max_score), s.error.empty() ? "" : " · " + esc(printable_id(s.error)));
    html += tr(lang, "<table><thead><tr><th>exercise</th><th>verdict</th><th class=\"num\">points</th><th>compiler</th><th>message</th></tr></thead><tbody>\n",
               "<table><thead><tr><th>练习</th><th>判定</th><th class=\"num\">得分</th><th>编译器</th><th>消息</th></tr></thead><tbody>\n");
    for (const Exercise* e : exercises) {
        const ExerciseRecord* r = exercise_of(s, e->id);
        const auto [verdict, message] = r ? exercise_verdict(*r, lang) : std::pair<std::string, std::string>{"missing", ""};
        html += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td class=\"num\">{}/{}</td><td>{}</td><td class=\"msg\">{}</td></tr>\n",
                            esc(e->id), esc(verdict), score_text(r ? r->score : 0), score_text(e->max_score()),
                            r ? esc(compiler_text(*r, lang)) : "", esc(printable_text(message)));
    }
    html += "</tbody></table>\n";
    std::vector<std::string> remarks;
    for (const MisnamedFile& m : s.misnamed) remarks.push_back(misnamed_text(m, lang));
    if (s.misnamed_more)
        remarks.push_back(misnamed_more_text(s.misnamed_more, lang));
    remarks.insert(remarks.end(), s.notes.begin(), s.notes.end());
    for (const std::string& r : remarks) html += fmt::format("<p class=\"msg\">{}</p>\n", esc(printable_text(r)));
    return html + "</details>\n";
}

}  // namespace

std::string students_html(const std::vector<const Exercise*>& exercises, const std::vector<StudentRecord>& students, Lang lang) {
    std::string html(tr(lang, "<h2 id=\"students\">Students</h2>\n", "<h2 id=\"students\">学生</h2>\n"));
    for (const StudentRecord& s : students) html += student_html(exercises, s, lang);
    return html;
}

std::string report_html(const std::vector<const Exercise*>& exercises, const std::vector<StudentRecord>& students,
                        const Insight* insight, Lang lang) {
    double max_total = 0, sum_total = 0;
    for (const Exercise* e : exercises) max_total += e->max_score();
    for (const StudentRecord& s : students) sum_total += s.score;
    const double n = static_cast<double>(std::max<std::size_t>(students.size(), 1));

    std::string html =
        "<!DOCTYPE html>\n<html lang=\"" + std::string(tr(lang, "en", "zh")) + "\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        "<title>blockcheck grade: class report</title>\n<style>\n"
        "body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:980px;color:#1d2433;padding:0 1em}"
        "h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.8em;border-bottom:1px solid #d6dbe4}"
        "table{border-collapse:collapse;width:100%}th,td{padding:3px 8px;border-bottom:1px solid #e6e9ef;text-align:left;vertical-align:top}"
        "td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}"
        ".chart{width:100%;max-width:620px;height:auto}.axis{stroke:#777}.bar{fill:#3b6fd8}"
        ".tick,.count{font-size:11px;text-anchor:middle;fill:#444}"
        ".rate{display:inline-block;height:12px;background:#2f9e6b;border-radius:2px;vertical-align:middle}"
        ".rate-box{display:inline-block;width:160px;background:#e8ecf2;border-radius:2px;margin-right:6px}"
        ".msg{color:#555;font-size:13px}code{font-size:13px}\n" + insight_css() + "</style>\n</head>\n<body>\n";
    html += tr_format(lang, "<h1>Class report</h1>\n<p id=\"report-summary\">{n} students, {e} exercises, {p} points; mean total {m} ({pct:.0f}%).</p>\n",
                      "<h1>班级报告</h1>\n<p id=\"report-summary\">{n} 名学生，{e} 道练习，{p} 分；平均总分 {m}（{pct:.0f}%）。</p>\n",
                      fmt::arg("n", students.size()), fmt::arg("e", exercises.size()), fmt::arg("p", score_text(max_total)),
                      fmt::arg("m", score_text(sum_total / n)), fmt::arg("pct", max_total > 0 ? 100 * sum_total / n / max_total : 0.0));
    if (insight)
        html += fmt::format("<p>{}</p>\n", tr(lang, "The instructor's view: <a href=\"#insight-mistakes\">what the class got wrong</a>, "
                                                   "<a href=\"#insight-items\">item statistics</a>, <a href=\"#insight-variants\">variants</a>, "
                                                   "<a href=\"#insight-shared\">answers shared without a reason</a>.",
                                               "教师视图：<a href=\"#insight-mistakes\">全班错在哪里</a>、<a href=\"#insight-items\">题目统计</a>、"
                                               "<a href=\"#insight-variants\">变体</a>、<a href=\"#insight-shared\">无来由的相同答案</a>。"));

    html += std::string(tr(lang, "<h2>Scores</h2>\n", "<h2>分数</h2>\n")) + histogram_svg(students, max_total);

    html += tr(lang, "<h2>Exercises</h2>\n<table id=\"exercise-rates\"><thead><tr><th>exercise</th><th>full marks</th>"
                     "<th class=\"num\">mean</th><th class=\"num\">max</th></tr></thead><tbody>\n",
               "<h2>练习</h2>\n<table id=\"exercise-rates\"><thead><tr><th>练习</th><th>满分</th>"
               "<th class=\"num\">平均</th><th class=\"num\">满分值</th></tr></thead><tbody>\n");
    for (const Exercise* e : exercises) {
        int full = 0;
        double sum = 0;
        for (const StudentRecord& s : students) {
            const double score = exercise_score(s, e->id);
            sum += score;
            full += e->max_score() > 0 && score >= e->max_score() - 1e-9;
        }
        const double rate = students.empty() ? 0 : 100.0 * full / static_cast<double>(students.size());
        html += fmt::format(
            "<tr><td><code>{}</code></td><td><span class=\"rate-box\" role=\"img\" aria-label=\"{:.0f}% full marks\">"
            "<span class=\"rate\" style=\"width:{:.1f}%\"></span></span>{}/{} ({:.0f}%)</td><td class=\"num\">{:.2f}</td><td class=\"num\">{}</td></tr>\n",
            esc(e->id), rate, rate, full, students.size(), rate, sum / n, score_text(e->max_score()));
    }
    html += "</tbody></table>\n";

    std::map<std::string, int> verdicts;
    // (exercise, part, verdict) -> count, sample message
    std::map<std::tuple<std::string, std::string, std::string>, std::pair<int, std::string>> wrong;
    for (const StudentRecord& s : students)
        for (const ExerciseRecord& e : s.exercises)
            for (const PartRecord& p : e.parts) {
                ++verdicts[p.verdict];
                // the book's numbers printed (the same text on both inputs) are no computed wrong answer
                if (p.verdict != "correct" && p.verdict != "missing" && p.diagnosis_id != "hard_coded") {
                    auto& [count, message] = wrong[{e.id, p.name, p.verdict}];
                    if (count++ == 0) message = p.message.substr(0, 240);
                }
            }
    html += tr(lang, "<h2>Verdicts</h2>\n<table id=\"verdict-counts\"><thead><tr><th>verdict</th><th class=\"num\">answer parts</th></tr></thead><tbody>\n",
               "<h2>判定</h2>\n<table id=\"verdict-counts\"><thead><tr><th>判定</th><th class=\"num\">小题数</th></tr></thead><tbody>\n");
    std::vector<std::pair<std::string, int>> by_count(verdicts.begin(), verdicts.end());
    std::stable_sort(by_count.begin(), by_count.end(), [](auto& a, auto& b) { return a.second > b.second; });
    for (const auto& [v, count] : by_count)
        html += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td></tr>\n", esc(v), count);
    html += "</tbody></table>\n";

    html += tr(lang, "<h2>Most common wrong answers</h2>\n<table id=\"common-wrong\"><thead><tr><th>exercise</th><th>part</th><th>verdict</th>"
                     "<th class=\"num\">students</th><th>a message</th></tr></thead><tbody>\n",
               "<h2>最常见的错误答案</h2>\n<table id=\"common-wrong\"><thead><tr><th>练习</th><th>小题</th><th>判定</th>"
               "<th class=\"num\">学生</th><th>一条消息</th></tr></thead><tbody>\n");
    std::vector<std::pair<std::tuple<std::string, std::string, std::string>, std::pair<int, std::string>>> common(wrong.begin(), wrong.end());
    std::stable_sort(common.begin(), common.end(), [](auto& a, auto& b) { return a.second.first > b.second.first; });
    if (common.size() > 15) common.resize(15);
    for (const auto& [key, value] : common)
        html += fmt::format("<tr><td><code>{}</code></td><td><code>{}</code></td><td>{}</td><td class=\"num\">{}</td><td class=\"msg\">{}</td></tr>\n",
                            esc(std::get<0>(key)), esc(std::get<1>(key)), esc(std::get<2>(key)), value.first, esc(value.second));
    if (common.empty())
        html += tr(lang, "<tr><td colspan=\"5\">none: every answer given was correct</td></tr>\n",
                   "<tr><td colspan=\"5\">无：给出的每个答案都正确</td></tr>\n");
    html += "</tbody></table>\n";
    html += students_html(exercises, students, lang);
    if (insight) html += insight_html(*insight, lang);
    return html + "</body>\n</html>\n";
}

}  // namespace blockcheck
