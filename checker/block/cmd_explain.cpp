// `blockcheck explain --html FILE`: the four-mode explainer page, drawn from the block's values.
#include "checker/block/explain.hpp"
#include "checker/common/cli.hpp"
#include "checker/common/files.hpp"
#include "checker/common/json_exact.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

struct ExplainOptions {
    std::string html, check_results;
};

// `check --json`'s output; a missing file or bad JSON is an InputFileError naming it.
nlohmann::ordered_json read_check_results(const std::string& file) {
    const std::string text = read_user_file(file, max_json_file_bytes);
    try {
        return parse_ordered_json(text, file);
    } catch (const InputFileError& e) {
        throw InputFileError(std::string(e.what()) + "; pass the output of `blockcheck check --json`");
    }
}

}  // namespace

void add_explain_command(CLI::App& app, Context& context) {
    auto options = std::make_shared<ExplainOptions>();
    CLI::App* cmd = app.add_subcommand(
        "explain", "write a self-contained HTML explainer (basics, advanced, practice, optimisation) drawn from the block's values");
    cmd->add_option("--html", options->html, "the HTML file to write")->required();
    cmd->add_option("--check-results", options->check_results,
                    "the output of `blockcheck check --json`: your answers beside the reference in the practice mode");
    cmd->callback([&context, options] {
        context.run = [&context, options] {
            const nlohmann::ordered_json check =
                options->check_results.empty() ? nlohmann::ordered_json(nullptr) : read_check_results(options->check_results);
            const std::string page = explain_html(context.root, explain_data(context.root, context.lang, check), context.lang);
            write_file_atomically(options->html, page);
            fmt::print("{}{}\n", tr(context.lang, "wrote ", "已写入 "), options->html);
            return 0;
        };
    });
}

}  // namespace blockcheck
