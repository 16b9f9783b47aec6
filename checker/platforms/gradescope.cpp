#include "checker/platforms/gradescope.hpp"

namespace blockcheck {

using Json = nlohmann::ordered_json;

namespace {

// A test of gradescope_json as feedback: no points, named for the inputs it ran on.
Json feedback_test(const Json& test, Lang lang) {
    return {{"name", test.at("name").get<std::string>() + std::string(tr(lang, " (book's inputs)", "（书中的输入）"))},
            {"status", test.at("status")},
            {"output", test.at("output")},
            {"visibility", "visible"}};
}

}  // namespace

Json gradescope_results(const StudentRecord& scored, const StudentRecord* book, Lang lang) {
    Json base = gradescope_json(scored, lang);
    Json tests = Json::array();
    if (book) {
        const Json feedback = gradescope_json(*book, lang);
        for (const Json& test : feedback.at("tests")) tests.push_back(feedback_test(test, lang));
    }
    for (Json test : base.at("tests")) {
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

}  // namespace blockcheck
