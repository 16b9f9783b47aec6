#include "checker/student/board.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

#include <algorithm>

namespace blockcheck {
namespace {

std::string paint(const BoardStyle& style, fmt::terminal_color colour, std::string_view text) {
    return style.color ? fmt::format(fmt::fg(colour), "{}", text) : std::string(text);
}

std::string mark(const BoardStyle& style, const std::string& status) {
    if (status == "done") return paint(style, fmt::terminal_color::green, "✓");
    if (status == "failing") return paint(style, fmt::terminal_color::red, "✗");
    return paint(style, fmt::terminal_color::bright_black, "·");
}

std::string part_mark(const BoardStyle& style, Verdict v) {
    if (v == Verdict::correct) return paint(style, fmt::terminal_color::green, "✓");
    if (v == Verdict::missing) return paint(style, fmt::terminal_color::bright_black, "·");
    if (v == Verdict::grader_fault) return paint(style, fmt::terminal_color::yellow, "!");
    return paint(style, fmt::terminal_color::red, "✗");
}

// First line only, for the one-line board.
std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The line of a compiler's or crash's note worth showing first.
std::string headline(const std::string& note) {
    std::size_t error = note.find(": error: ");
    if (error == std::string::npos) return first_line(note);
    std::size_t start = note.rfind('\n', error);
    return first_line(note.substr(start == std::string::npos ? 0 : start + 1));
}

std::string score_text(double score, double max) { return fmt::format("{:g}/{:g}", score, max); }

}  // namespace

bool says_book_numbers(const ExerciseResult& result) {
    return std::any_of(result.parts.begin(), result.parts.end(),
                       [](const PartResult& p) { return p.diagnosis && p.diagnosis->id == "hard_coded"; });
}

void fail_book_numbers(ExerciseResult& result) {
    if (result.status == "done" && says_book_numbers(result)) result.status = "failing";
}

bool wrong_on_variant(const ExerciseResult& result, const std::string& part) {
    return std::find(result.wrong_on_variant.begin(), result.wrong_on_variant.end(), part) != result.wrong_on_variant.end();
}

bool fully_done(const ExerciseResult& result) {
    return result.score >= result.max_score - 1e-9 && result.wrong_on_variant.empty() && !says_book_numbers(result);
}

namespace {

// The board's words for one exercise: why it is not done, or its title.
std::string board_detail(const Exercise& e, const ExerciseResult& r, Lang lang) {
    const std::string colon(tr(lang, ": ", "："));
    if (r.status == "not_done") return std::string(tr(lang, "not done: ", "未完成：")) + e.title.in(lang);
    if (auto whole = r.whole_program_verdict()) return whole_program_label(*whole, lang) + colon + headline(r.note.in(lang));
    const PartResult* p = r.first_failing_part();
    // a program that asked for an input of another name stopped before printing: the header's message
    if (p && p->verdict == Verdict::missing && !r.note.in(lang).empty()) {
        const bool name = r.note.en.find("has no input") != std::string::npos;
        return std::string(name ? tr(lang, "input name", "输入名") : tr(lang, "input", "输入")) + colon + headline(r.note.in(lang));
    }
    if (p) return p->name + colon + first_line(p->message.in(lang));
    // right on the book's inputs, wrong on the probe's variant: the first such part
    for (const PartResult& part : r.parts) {
        if (part.diagnosis && part.diagnosis->id == "hard_coded") return part.name + colon + part.diagnosis->message.in(lang);
        if (wrong_on_variant(r, part.name))
            return part.name + colon +
                   tr_format(lang, "right on the book's inputs, wrong on other inputs: ./blockcheck check {} shows them",
                             "在书中的输入上正确，换一组输入就错：./blockcheck check {} 会列出这组输入", e.id);
    }
    // a done exercise's line is its title: a note on a right part (float) is for `check ID`
    return e.title.in(lang);
}

// What to do next: the first failing exercise, else the first not started.
std::size_t next_exercise(const std::vector<ExerciseResult>& results) {
    for (std::size_t i = 0; i < results.size(); ++i)
        if (results[i].status == "failing") return i;
    for (std::size_t i = 0; i < results.size(); ++i)
        if (results[i].status != "done") return i;
    return results.size();
}

}  // namespace

std::string render_board(const ExerciseSet& set, const std::vector<const Exercise*>& exercises, const std::vector<ExerciseResult>& results,
                         const BoardStyle& style) {
    const Lang lang = style.lang;
    std::string out, chapter;
    std::size_t width = 0;
    for (const Exercise* e : exercises) width = std::max(width, e->id.size());
    double score = 0, max = 0;
    int done = 0;
    for (std::size_t i = 0; i < exercises.size(); ++i) {
        const Exercise& e = *exercises[i];
        const ExerciseResult& r = results[i];
        if (e.chapter != chapter) {
            chapter = e.chapter;
            out += fmt::format("{}{}\n", out.empty() ? "" : "\n", set.chapter_title(chapter).in(lang));
        }
        out += fmt::format("  {} {:<{}}  {:>6}  {}\n", mark(style, r.status), e.id, width, score_text(r.score, r.max_score),
                           board_detail(e, r, lang));
        score += r.score, max += r.max_score;
        done += r.status == "done";
    }
    out += fmt::format("\n{}{}/{} {} · {} {}\n", tr(lang, "Progress: ", "进度："), done, exercises.size(),
                       tr(lang, "done", "完成"), score_text(score, max), tr(lang, "points", "分"));
    if (const std::size_t n = next_exercise(results); n < exercises.size()) {
        const Exercise* next = exercises[n];
        const bool started = results[n].status == "failing";
        out += fmt::format(
            "{}{}{}{} {}\n      {}\n",
            tr(lang, "Next: ", "下一步："), next->id, tr(lang, ": ", "："),
            started ? tr(lang, "fix", "修改") : tr(lang, "write", "编写"), next->source,
            fmt::format("./blockcheck {} {}   ./blockcheck show {}   ./blockcheck hint {}",
                        started ? "check" : "run", next->id, next->id, next->id));
    } else if (!exercises.empty() && style.on_variants) {
        out += tr(lang, "Every exercise here is done on these inputs.\n", "这里的练习在这些输入上全部完成。\n");
    } else if (!exercises.empty()) {
        // never a fixed seed: that could be the variant just passed
        out += tr(lang, "Every exercise here is done. Try other inputs: ./blockcheck check --variants 5\n",
                  "这里的练习全部完成。换几组输入再试：./blockcheck check --variants 5\n");
    }
    return out;
}

std::string render_parts(const Exercise& exercise, const ExerciseResult& result, const BoardStyle& style) {
    const Lang lang = style.lang;
    std::string out = fmt::format("{} {} — {}  {}\n", mark(style, result.status), exercise.id, exercise.title.in(lang),
                                  score_text(result.score, result.max_score));
    if (result.variant) out += fmt::format("  {} {}\n", tr(lang, "variant", "变体"), *result.variant);
    std::size_t width = 0;
    for (const PartResult& p : result.parts) width = std::max(width, p.name.size());
    const auto whole = result.whole_program_verdict();
    if (whole)
        out += fmt::format("  {} {} {}\n", part_mark(style, *whole), whole_program_label(*whole, lang),
                           fmt::format(fmt::runtime(tr(lang, "(all {} parts)", "（全部 {} 小题）")), result.parts.size()));
    std::vector<std::string> said;  // a diagnosis on right parts (the float note) is told once an exercise
    for (const PartResult& p : result.parts) {
        if (whole) break;
        std::string message = p.message.in(lang);
        for (std::size_t pos = 0; (pos = message.find('\n', pos)) != std::string::npos; pos += 1)
            message.insert(pos + 1, std::string(width + 8, ' '));
        // a part right here and wrong on the probe's variant is wrong
        const Verdict shown = wrong_on_variant(result, p.name) ? Verdict::wrong : p.verdict;
        out += fmt::format("  {} {:<{}}  {}\n", part_mark(style, shown), p.name, width, message);
        const bool right = shown == Verdict::correct;
        if (p.diagnosis && right && std::find(said.begin(), said.end(), p.diagnosis->id) == said.end())
            out += fmt::format("    {:<{}}  {}{}\n", "", width, tr(lang, "note: ", "提示："), p.diagnosis->message.in(lang));
        else if (p.diagnosis && !right)
            out += fmt::format("    {:<{}}  {}{}\n", "", width, tr(lang, "likely mistake: ", "可能的错误："),
                               p.diagnosis->message.in(lang));
        if (p.diagnosis) said.push_back(p.diagnosis->id);
        for (const Diagnosis& d : p.diagnoses)
            out += fmt::format("    {:<{}}  {}{}\n", "", width, tr(lang, "likely mistake (two made at once): ", "可能的错误（同时犯了两个）："),
                               d.message.in(lang));
        for (const Text& note : p.notes) out += fmt::format("    {:<{}}  {}\n", "", width, note.in(lang));
    }
    if (!result.note.in(lang).empty())
        out += "\n" + result.note.in(lang) + (result.note.in(lang).ends_with('\n') ? "" : "\n");
    for (const ProtocolIssue& issue : result.issues) out += fmt::format("  ? {}\n", issue.message.in(lang));
    return out;
}

nlohmann::ordered_json result_json(const ExerciseResult& r, Lang lang) {
    nlohmann::ordered_json parts = nlohmann::ordered_json::array();
    for (const PartResult& p : r.parts)
    {
        nlohmann::ordered_json part = {{"name", p.name},
                                       {"verdict", verdict_name(p.verdict)},
                                       {"score", p.score},
                                       {"max_score", p.max_score},
                                       {"message", p.message.in(lang)}};
        if (p.diagnosis) part["diagnosis"] = {{"id", p.diagnosis->id}, {"message", p.diagnosis->message.in(lang)}};
        for (const Diagnosis& d : p.diagnoses) part["diagnoses"].push_back({{"id", d.id}, {"message", d.message.in(lang)}});
        for (const Text& note : p.notes) part["notes"].push_back(note.in(lang));
        if (p.follow_through) part["follow_through"] = *p.follow_through;
        parts.push_back(part);
    }
    nlohmann::ordered_json j = {{"id", r.id},   {"status", r.status}, {"score", r.score},
                                {"max_score", r.max_score}, {"parts", parts}};
    if (!r.wrong_on_variant.empty()) j["wrong_on_variant"] = r.wrong_on_variant;
    if (r.variant) j["variant"] = seed_json(*r.variant);
    if (!r.note.in(lang).empty()) j["note"] = r.note.in(lang);
    return j;
}

nlohmann::ordered_json results_json(const std::vector<ExerciseResult>& results, Lang lang) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    double score = 0, max = 0;
    for (const ExerciseResult& r : results) {
        list.push_back(result_json(r, lang));
        score += r.score, max += r.max_score;
    }
    return {{"exercises", list}, {"score", score}, {"max_score", max}};
}

}  // namespace blockcheck
