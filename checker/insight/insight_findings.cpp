// The terminal's top findings, read back from insight.json.
#include "base/errors.hpp"
#include "checker/insight/insight_trace.hpp"
#include "checker/insight/insight_write.hpp"
#include "checker/outputs/student_id.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace blockcheck {

namespace {

struct Finding {
    double share = 0;
    std::string text;
};

std::string part_name(const nlohmann::json& p) {
    return printable_id(p.at("exercise").get<std::string>()) + "." + printable_id(p.at("part").get<std::string>());
}

std::string percent(double share) { return fmt::format("{:.0f}%", 100 * share); }

std::vector<NearMistake> near_of(const nlohmann::json& list) {
    std::vector<NearMistake> near;
    for (const auto& m : list) near.push_back({m.at("mistake").get<std::string>(), m.at("distance").get<double>()});
    return near;
}

// "swiglu_ffn_2d.silu: 3 students; departs at silu (3 of 3); nearest: gelu_for_silu 0.001, ..."
Finding traced(const nlohmann::json& a, Lang lang) {
    const std::size_t n = a.at("count").get<std::size_t>();
    std::string text = tr_format(lang, "{part}: {n} students", "{part}：{n} 名学生", fmt::arg("part", part_name(a)), fmt::arg("n", n));
    // a file of an earlier version has no trace: its groups are counted only
    const std::string step = a.value("departs_at", nlohmann::json()).is_string() ? printable_id(a.at("departs_at").get<std::string>()) : "";
    if (!step.empty())
        text += tr_format(lang, "; departs at {step} ({k} of {n})", "；偏离于 {step}（{n} 人中 {k} 人）", fmt::arg("step", step),
                          fmt::arg("k", a.at("departing").get<std::size_t>()), fmt::arg("n", n));
    const std::string near = nearest_text(near_of(a.value("closest", nlohmann::json::array())), step,
                                          near_of(a.value("closest_at_step", nlohmann::json::array())), lang);
    if (!near.empty()) text += tr_format(lang, "; nearest: {near}", "；最接近：{near}", fmt::arg("near", near));
    return {double(n), text};
}

// The lines of one kind, largest share first (ties: as the file lists them), at most `limit`.
std::string lines(std::vector<Finding> found, std::size_t limit) {
    std::stable_sort(found.begin(), found.end(), [](const Finding& a, const Finding& b) { return a.share > b.share; });
    if (found.size() > limit) found.resize(limit);
    std::string out;
    for (const Finding& f : found) out += "  " + f.text + "\n";
    return out;
}

}  // namespace

std::string insight_findings(const nlohmann::json& in, Lang lang, std::size_t limit) {
    try {
        if (in.at("format").get<std::string>() != insight_format)
            throw InputFileError("insight.json: not a " + std::string(insight_format) + " file");
        std::vector<Finding> mistakes, unexplained, flagged, shared;
        for (const auto& a : in.at("shared_answers")) shared.push_back(traced(a, lang));
        for (const auto& p : in.at("parts")) {
            for (const auto& o : p.at("outcomes")) {
                const std::string id = o.at("outcome").get<std::string>();
                if (!id.starts_with("mistake:")) continue;
                const double share = o.at("share").get<double>();
                mistakes.push_back({share, fmt::format("{}: {} {}", part_name(p), percent(share), printable_id(id.substr(8)))});
            }
            const std::size_t wrong = p.at("wrong_answers").get<std::size_t>();
            if (p.at("unexplained").get<bool>())
                unexplained.push_back({double(wrong), tr_format(lang, "{part}: {n} wrong answers, most of them no known mistake",
                                                                 "{part}：{n} 个错误答案，多数不符合任何已知错误",
                                                                 fmt::arg("part", part_name(p)), fmt::arg("n", wrong))});
            if (p.at("flagged").get<bool>())
                flagged.push_back({-p.at("point_biserial").get<double>(),
                                   tr_format(lang, "{part}: discrimination {r:.2f} (difficulty {d})", "{part}：区分度 {r:.2f}（通过率 {d}）",
                                             fmt::arg("part", part_name(p)), fmt::arg("r", p.at("point_biserial").get<double>()),
                                             fmt::arg("d", percent(p.at("difficulty").get<double>())))});
        }
        std::string out = tr_format(lang, "{n} students\n", "{n} 名学生\n", fmt::arg("n", in.at("students").get<std::size_t>()));
        auto section = [&](std::string_view en, std::string_view zh, const std::vector<Finding>& found) {
            out += std::string(tr(lang, en, zh)) + "\n" + (found.empty() ? std::string(tr(lang, "  none\n", "  无\n")) : lines(found, limit));
        };
        section("most common mistakes (share of the class):", "最常见的错误（占全班比例）：", mistakes);
        section("parts whose wrong answers mostly match no known mistake:", "错误答案多数不符合已知错误的小题：", unexplained);
        section("shared wrong answers no mistake explains: where they depart, the nearest catalogue mistakes "
                "(relative distance):",
                "无已知错误可解释的相同错误答案：偏离的步骤，最接近的目录错误（相对距离）：", shared);
        section("parts that do not separate stronger from weaker students (discrimination below 0.1):",
                "区分度低于 0.1 的小题（强弱学生答对的比例相近）：", flagged);
        std::vector<Finding> constants;
        for (const auto& c : in.value("printed_constants", nlohmann::json::array())) {
            std::string parts;
            for (const auto& part : c.at("parts")) parts += (parts.empty() ? "" : ", ") + printable_id(part.get<std::string>());
            constants.push_back({0, fmt::format("{} / {}: {}", printable_id(c.at("student").get<std::string>()),
                                                printable_id(c.at("exercise").get<std::string>()), parts)});
        }
        section("the same text printed on the book's inputs and on the student's variant, right on the first and wrong on the "
                "second (the book's numbers printed instead of computed? for a person to look at, not a verdict):",
                "在书中的输入和学生的变体上输出相同文字、前者正确后者错误的（是直接输出了书上的数吗？仅供人工查看，不是结论）：",
                constants);
        out += tr_format(lang,
                         "shared without a reason: {a} groups of identical wrong answers, {c} groups of identical programs "
                         "(insight.csv lists them; they are for a person to look at, not a verdict)\n",
                         "无来由的相同：{a} 组相同的错误答案，{c} 组相同的程序（见 insight.csv；仅供人工查看，不是结论）\n",
                         fmt::arg("a", in.at("shared_answers").size()), fmt::arg("c", in.at("shared_code").size()));
        return out;
    } catch (const nlohmann::json::exception& e) {
        throw InputFileError(std::string("insight.json: ") + e.what());
    }
}

}  // namespace blockcheck
