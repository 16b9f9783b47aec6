#include "checker/platforms/gradescope.hpp"

namespace blockcheck {

using Json = nlohmann::ordered_json;

namespace {

// A test of gradescope_json as feedback: no points, named for the inputs it ran on.
Json feedback_test(const Json& test) {
    return {{"name", test.at("name").get<std::string>() + " (book's inputs)"},
            {"status", test.at("status")},
            {"output", test.at("output")},
            {"visibility", "visible"}};
}

}  // namespace

Json gradescope_results(const StudentRecord& scored, const StudentRecord* book) {
    Json base = gradescope_json(scored);
    Json tests = Json::array();
    if (book) {
        const Json feedback = gradescope_json(*book);
        for (const Json& test : feedback.at("tests")) tests.push_back(feedback_test(test));
    }
    for (Json test : base.at("tests")) {
        test["visibility"] = book ? "after_due_date" : "visible";
        tests.push_back(std::move(test));
    }
    std::string output = base.at("output").get<std::string>();
    if (book)
        output += "\nYour score comes from inputs drawn for you (variants); their tests show after the due date. "
                  "The tests marked (book's inputs) run your programs on the book's values and carry no points.";
    return {{"score", scored.score},
            {"output", output},
            {"output_format", "text"},
            {"visibility", "visible"},
            {"stdout_visibility", "hidden"},
            {"tests", tests}};
}

}  // namespace blockcheck
