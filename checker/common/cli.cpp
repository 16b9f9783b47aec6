#include "checker/common/cli.hpp"

#include "base/errors.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <unistd.h>

namespace blockcheck {
namespace {

std::filesystem::path project_root(const std::filesystem::path& built_at) {
    if (const char* root = std::getenv("BLOCKCHECK_ROOT"); root && *root) return root;
    return built_at;
}

}  // namespace

int run_command_line(int argc, char** argv, const std::filesystem::path& built_at,
                     std::initializer_list<AddCommands> sides) {
    Context context;
    context.root = project_root(built_at);
    context.lang = lang_from_environment();
    context.color = isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");

    CLI::App app{"blockcheck: exercises, grading and verification for RoPE, RMSNorm and SwiGLU"};
    app.require_subcommand(0, 1);
    app.fallthrough();
    std::string lang_option;
    app.add_option("--lang", lang_option, "language of the prose: zh or en (default: from LANG)")
        ->check(CLI::IsMember({"zh", "en"}));
    for (AddCommands add : sides) add(app, context);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int status = app.exit(e);
        return status == 0 ? 0 : 2;
    }
    if (!lang_option.empty()) context.lang = lang_option == "zh" ? Lang::zh : Lang::en;
    if (!context.run) {
        fmt::print("{}", app.help());
        return 0;
    }
    try {
        return context.run();
    } catch (const InputFileError& e) {
        fmt::print(stderr, "blockcheck: {}\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "blockcheck: internal error: {}\n", e.what());
        return 3;
    }
}

}  // namespace blockcheck
