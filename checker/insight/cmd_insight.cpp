// `blockcheck insight OUT`: the top findings of a graded class (OUT/insight.json) in the terminal.
#include "checker/common/cli.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/common/files.hpp"
#include "checker/insight/insight_write.hpp"

#include <fmt/format.h>

#include <memory>

namespace blockcheck {

namespace fs = std::filesystem;

void add_insight_command(CLI::App& app, Context& context) {
    auto out = std::make_shared<std::string>();
    auto limit = std::make_shared<std::size_t>(8);
    CLI::App* cmd = app.add_subcommand("insight", "what a graded class got wrong: the top findings of OUT/insight.json");
    cmd->add_option("out", *out, "the output folder of `blockcheck grade` (its --out)")->required();
    cmd->add_option("--top", *limit, "lines per kind of finding")->capture_default_str();
    cmd->footer("The whole view: OUT/report.html; every student of every finding: OUT/insight.csv and OUT/insight.json\n"
                "(docs/insight-format.md).");
    cmd->callback([&context, out, limit] {
        context.run = [&context, out, limit] {
            const fs::path file = fs::path(*out) / "insight.json";
            if (!fs::exists(file))
                throw InputFileError(file.string() + ": not found (grade the class first: blockcheck grade DIR --out " + *out + ")");
            nlohmann::json json;
            try {
                json = parse_json(read_user_file(file, max_json_file_bytes), file.string());
            } catch (const nlohmann::json::exception& e) {
                throw InputFileError(file.string() + ": " + e.what());
            }
            fmt::print("{}", insight_findings(json, context.lang, *limit));
            return 0;
        };
    });
}

}  // namespace blockcheck
