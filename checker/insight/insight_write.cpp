#include "checker/insight/insight_write.hpp"

#include "checker/common/files.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/outputs/student_id.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace blockcheck {

using Json = nlohmann::ordered_json;

namespace {

// Shares and statistics rounded to 6 decimals: the same text on every machine.
double rounded(double x) { return std::round(x * 1e6) / 1e6 + 0.0; }

Json optional_number(const std::optional<double>& x) { return x ? Json(rounded(*x)) : Json(nullptr); }

double share(std::size_t count, std::size_t of) { return of ? rounded(double(count) / double(of)) : 0.0; }

Json part_json(const PartInsight& p) {
    Json outcomes = Json::array();
    for (const OutcomeGroup& g : p.outcomes)
        outcomes.push_back({{"outcome", g.outcome}, {"count", g.students.size()}, {"share", share(g.students.size(), p.students)},
                            {"students", g.students}});
    return {{"exercise", p.exercise},
            {"part", p.part},
            {"students", p.students},
            {"difficulty", rounded(p.difficulty)},
            {"point_biserial", optional_number(p.point_biserial)},
            {"upper_lower", optional_number(p.upper_lower)},
            {"flagged", p.flagged},
            {"wrong_answers", p.wrong_answers},
            {"unexplained", p.unexplained},
            {"outcomes", outcomes}};
}

Json code_json(const SharedCode& g, bool named) {
    Json j = {{"exercise", g.exercise}, {"tokens", g.tokens}, {"all_right", g.all_right}, {"count", g.students.size()}};
    if (named) j["students"] = g.students;
    return j;
}

std::string joined(const std::vector<std::string>& students) {
    std::string out;
    for (const std::string& s : students) out += (out.empty() ? "" : "; ") + printable_id(s);
    return out;
}

std::string number_cell(const std::optional<double>& x) { return x ? fmt::format("{}", rounded(*x)) : ""; }

Json near_json(const std::vector<NearMistake>& near) {
    Json list = Json::array();
    for (const NearMistake& m : near) list.push_back({{"mistake", m.mistake}, {"distance", m.distance}});
    return list;
}

Json shared_answer_json(const SharedAnswer& a) {
    return {{"exercise", a.exercise},
            {"part", a.part},
            {"answer", a.answer},
            {"count", a.students.size()},
            {"students", a.students},
            {"departs_at", a.departs_at.empty() ? Json(nullptr) : Json(a.departs_at)},
            {"departing", a.departing},
            {"right_distance", a.right_distance ? Json(*a.right_distance) : Json(nullptr)},
            {"closest", near_json(a.closest)},
            {"closest_at_step", near_json(a.closest_at_step)}};
}

// "gelu_for_silu 0.001023; relu_for_silu 0.4"
std::string near_cell(const std::vector<NearMistake>& near) {
    std::string out;
    for (const NearMistake& m : near) out += fmt::format("{}{} {}", out.empty() ? "" : "; ", m.mistake, m.distance);
    return out;
}

}  // namespace

Json insight_json(const Insight& in) {
    Json parts = Json::array(), variants = Json::array(), answers = Json::array(), code = Json::array(), common = Json::array();
    for (const PartInsight& p : in.parts) parts.push_back(part_json(p));
    for (const VariantInsight& v : in.variant_parameters) {
        Json values = Json::array();
        for (const VariantValue& x : v.values)
            values.push_back({{"value", x.value}, {"students", x.students}, {"right", x.right}, {"share", share(x.right, x.students)}});
        variants.push_back({{"exercise", v.exercise}, {"parameter", v.parameter}, {"values", values}});
    }
    for (const SharedAnswer& a : in.shared_answers)
        answers.push_back(shared_answer_json(a));
    for (const SharedCode& g : in.shared_code) code.push_back(code_json(g, true));
    for (const SharedCode& g : in.common_code) common.push_back(code_json(g, false));
    Json constants = Json::array();
    for (const PrintedConstants& c : in.printed_constants)
        constants.push_back({{"student", c.student}, {"exercise", c.exercise}, {"parts", c.parts},
                             {"variant", c.variant ? Json(seed_json(*c.variant)) : Json(nullptr)}});
    return {{"format", insight_format},
            {"students", in.students},
            {"variants", in.variants},
            {"parts", parts},
            {"variant_parameters", variants},
            {"shared_answers", answers},
            {"shared_code", code},
            {"common_code", common},
            {"printed_constants", constants}};
}

std::string insight_csv(const Insight& in) {
    std::string out = "exercise,part,outcome,count,share,difficulty,point_biserial,upper_lower,flagged,evidence,students,"
                      "departs_at,closest,closest_at_step\r\n";
    for (const PartInsight& p : in.parts)
        for (const OutcomeGroup& g : p.outcomes)
            out += fmt::format("{},{},{},{},{},{},{},{},{},,{},,,\r\n", csv_cell(p.exercise), csv_cell(p.part), csv_cell(g.outcome),
                               g.students.size(), share(g.students.size(), p.students), rounded(p.difficulty),
                               number_cell(p.point_biserial), number_cell(p.upper_lower), p.flagged ? "yes" : "no",
                               csv_cell(joined(g.students)));
    for (const SharedAnswer& a : in.shared_answers)
        out += fmt::format("{},{},shared_answer,{},,,,,,{},{},{},{},{}\r\n", csv_cell(a.exercise), csv_cell(a.part), a.students.size(),
                           csv_cell(printable_id(a.answer)), csv_cell(joined(a.students)),
                           csv_cell(a.departs_at.empty() ? "" : fmt::format("{} ({} of {})", a.departs_at, a.departing, a.students.size())),
                           csv_cell(near_cell(a.closest)), csv_cell(near_cell(a.closest_at_step)));
    for (const SharedCode& g : in.shared_code)
        out += fmt::format("{},,shared_code,{},,,,,,{},{},,,\r\n", csv_cell(g.exercise), g.students.size(),
                           csv_cell(fmt::format("{} tokens{}", g.tokens, g.all_right ? ", all right" : "")), csv_cell(joined(g.students)));
    for (const PrintedConstants& c : in.printed_constants)
        out += fmt::format("{},,printed_constants,1,,,,,,{},{},,,\r\n", csv_cell(c.exercise), csv_cell(joined(c.parts)),
                           csv_cell(printable_id(c.student)));
    return out;
}

void write_insight_files(const std::filesystem::path& out, const Insight& insight) {
    write_file_atomically(out / "insight.json", dump_json(insight_json(insight)));
    write_file_atomically(out / "insight.csv", insight_csv(insight));
}

}  // namespace blockcheck
