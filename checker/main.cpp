// blockcheck: exercises, grading and verification for the RoPE / RMSNorm / SwiGLU chapter.
#include "checker/common/cli.hpp"
#include "checker/common/json_exact.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <unistd.h>

using namespace blockcheck;

namespace {

std::filesystem::path project_root() {
    if (const char* root = std::getenv("BLOCKCHECK_ROOT"); root && *root) return root;
    return BLOCKCHECK_SOURCE_DIR;
}

}  // namespace

int main(int argc, char** argv) {
    Context context;
    context.root = project_root();
    context.lang = lang_from_environment();
    context.color = isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");

    CLI::App app{"blockcheck: exercises, grading and verification for RoPE, RMSNorm and SwiGLU"};
    app.require_subcommand(0, 1);
    app.fallthrough();
    std::string lang_option;
    app.add_option("--lang", lang_option, "language of the prose: zh or en (default: from LANG)")
        ->check(CLI::IsMember({"zh", "en"}));
    add_check_command(app, context);
    add_watch_command(app, context);
    add_list_command(app, context);
    add_show_command(app, context);
    add_hint_command(app, context);
    add_run_command(app, context);
#ifndef BLOCKCHECK_STUDENT_EDITION
    // The full edition: what needs the block, the references or a class.
    add_grade_command(app, context);
    add_forward_command(app, context);
    add_compare_command(app, context);
    add_case_command(app, context);
    add_bench_command(app, context);
    add_rerun_command(app, context);
    add_verify_command(app, context);
    add_explain_command(app, context);
    add_release_command(app, context);
    add_new_command(app, context);
    add_validate_command(app, context);
    add_gradescope_package_command(app, context);
    add_classroom_command(app, context);
#endif

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int status = app.exit(e);
        return status == 0 ? 0 : 2;
    }
    if (!lang_option.empty()) context.lang = lang_option == "zh" ? Lang::zh : Lang::en;
    if (!context.run) context.run = [&context] { return run_default_check(context); };
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
