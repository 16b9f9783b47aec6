#include "checker/outputs/gradescope.hpp"

#include "checker/common/files.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/outputs/sandbox_policy.hpp"
#include "checker/outputs/student_id.hpp"

namespace blockcheck {

using Json = nlohmann::ordered_json;

namespace {

std::string book_test_name(const std::string& name, Lang lang) { return name + std::string(tr(lang, " (book's inputs)", "（书中的输入）")); }

// A test of gradescope_json as feedback: no points, named for the inputs it ran on.
Json feedback_test(const Json& test, Lang lang) {
    return {{"name", book_test_name(test.at("name").get<std::string>(), lang)},
            {"status", test.at("status")},
            {"output", test.at("output")},
            {"visibility", "visible"}};
}

// "\nLikely mistake (id): message" of a part a classic mistake explains; "" otherwise.
std::string diagnosis_text(const PartRecord& p, Lang lang) {
    if (p.diagnosis_id.empty()) return {};
    return tr_format(lang, "\nLikely mistake ({}): {}", "\n可能的错误（{}）：{}", p.diagnosis_id, p.diagnosis_message);
}

// The feedback of a part wrong on the book's inputs too (ExerciseRecord::book_parts): no points.
Json book_part_test(const ExerciseRecord& ex, const PartRecord& p, Lang lang) {
    return {{"name", book_test_name(ex.id + ": " + p.name, lang)},
            {"status", "failed"},
            {"output", printable_text(p.message + diagnosis_text(p, lang))}};
}

}  // namespace

Json gradescope_json(const StudentRecord& s, Lang lang) {
    const std::string unreadable =
        tr_format(lang, "the submission could not be read: {}", "提交的内容无法读取：{}", s.error);
    Json tests = Json::array();
    for (const ExerciseRecord& ex : s.exercises) {
        bool first = true;
        for (const PartRecord& p : ex.parts) {
            std::string output = (s.error.empty() ? p.message : unreadable) + diagnosis_text(p, lang);
            if (first && !ex.note.empty() && ex.note != p.message && s.error.empty() && p.verdict != "correct") output += "\n\n" + ex.note;
            if (ex.variant && first) output += tr_format(lang, "\n(inputs of variant {})", "\n（变体 {} 的输入）", *ex.variant);
            tests.push_back({{"name", ex.id + ": " + p.name},
                             {"score", p.score},
                             {"max_score", p.max_score},
                             {"status", p.verdict == "correct" || (p.verdict == "grader_fault" && !ex.fault_repeated) ? "passed" : "failed"},
                             {"output", printable_text(output)}});
            first = false;
            for (const PartRecord& b : ex.book_parts)
                if (b.name == p.name) tests.push_back(book_part_test(ex, b, lang));
        }
    }
    std::string output = tr_format(lang, "{}/{} points", "{}/{} 分", score_text(s.score), score_text(s.max_score));
    if (!s.error.empty()) output += "\n" + unreadable;
    if (s.has_repeated_grader_fault())
        output += tr(lang, "\nThe grader failed on some parts in two runs in a row; they are not credited: ask your instructor.",
                     "\n评分程序连续两次在部分小题上出错，这些小题不计分：请联系老师。");
    else if (s.has_grader_fault())
        output += tr(lang, "\nThe grader failed on some parts; they are credited to you until graded again.",
                     "\n评分程序在部分小题上出错；重新评分之前，这些小题按得分计。");
    for (const std::string& note : s.notes) output += "\n" + note;
    for (const MisnamedFile& m : s.misnamed) output += "\n" + misnamed_text(m, lang);
    if (s.misnamed_more)
        output += "\n" + misnamed_more_text(s.misnamed_more, lang);
    if (s.unsandboxed) output += "\n" + no_sandbox_student_note().in(lang);
    // Every text a student controls (file names, compiler messages quoting the source) without a control byte.
    return {{"score", s.score}, {"output", printable_text(output)}, {"tests", tests}};
}

Json gradescope_results(const StudentRecord& scored, const StudentRecord* book, Lang lang) {
    Json base = gradescope_json(scored, lang);
    Json tests = Json::array();
    if (book) {
        const Json feedback = gradescope_json(*book, lang);
        for (const Json& test : feedback.at("tests")) tests.push_back(feedback_test(test, lang));
    }
    for (Json test : base.at("tests")) {
        if (book && !test.contains("max_score")) continue;  // the book's run above tells every part
        test["visibility"] = book ? "after_due_date" : "visible";
        tests.push_back(std::move(test));
    }
    std::string output = base.at("output").get<std::string>();
    if (book)
        output += tr(lang,
                     "\nYour score comes from inputs drawn for you (variants); their tests show after the due date. "
                     "The tests marked (book's inputs) run your programs on the book's values and carry no points.",
                     "\n你的分数来自为你抽取的输入（变体），这些测试在截止日期后显示。"
                     "标为（书中的输入）的测试用书中的数值运行你的程序，不计分。");
    return {{"score", scored.score},
            {"output", output},
            {"output_format", "text"},
            {"visibility", "visible"},
            {"stdout_visibility", "hidden"},
            {"tests", tests}};
}

std::string gradescope_submitter(const std::filesystem::path& metadata, std::string* problem) {
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::symlink_status(metadata, ec))) return "submission";
    try {
        const nlohmann::json m = parse_json(read_user_file(metadata, max_json_file_bytes), metadata.string());
        for (const auto& user : m.at("users"))
            for (const char* field : {"email", "sid", "id"})
                if (user.contains(field) && !user[field].is_null()) {
                    std::string id = user[field].is_string() ? user[field].get<std::string>() : user[field].dump();
                    if (!id.empty()) return id;
                }
    } catch (const std::exception& bad) {
        if (problem) *problem = printable_id(bad.what());
    }
    return "submission";
}

nlohmann::ordered_json gradescope_refusal(Lang lang) {
    const std::string why = std::string(tr(
        lang,
        "The autograder could not isolate programs on this machine (no sandbox works here), so it did not run yours: "
        "this 0 is not your grade. Your instructor must fix the autograder's setup (its log says what is missing).",
        "自动评分无法在此机器上隔离程序（没有可用的沙箱），因此没有运行你的程序：这个 0 分不是你的成绩。"
        "需要老师修复自动评分的设置（其日志说明了缺少什么）。"));
    return {{"score", 0},
            {"output", why},
            {"output_format", "text"},
            {"visibility", "visible"},
            {"stdout_visibility", "hidden"},
            {"tests", {{{"name", "sandbox"}, {"score", 0}, {"max_score", 0}, {"status", "failed"}, {"output", why},
                        {"visibility", "visible"}}}}};
}

}  // namespace blockcheck
