// The `blockcheck` command: each subcommand registers itself on the CLI11 app.
#pragma once

#include "checker/common/i18n.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>

namespace blockcheck {

// What every subcommand may read: where the project lives, the language, the terminal.
struct Context {
    std::filesystem::path root;  // the repository (data/, chapters/)
    Lang lang = Lang::en;
    bool color = false;           // stdout is a terminal and NO_COLOR is unset
    std::function<int()> run;     // set by the chosen subcommand's callback
};

void add_forward_command(CLI::App& app, Context& context);
void add_compare_command(CLI::App& app, Context& context);
void add_case_command(CLI::App& app, Context& context);
void add_bench_command(CLI::App& app, Context& context);
void add_rerun_command(CLI::App& app, Context& context);
void add_verify_command(CLI::App& app, Context& context);
void add_check_command(CLI::App& app, Context& context);
void add_list_command(CLI::App& app, Context& context);
void add_show_command(CLI::App& app, Context& context);
void add_hint_command(CLI::App& app, Context& context);
void add_watch_command(CLI::App& app, Context& context);
void add_run_command(CLI::App& app, Context& context);
void add_grade_command(CLI::App& app, Context& context);
void add_explain_command(CLI::App& app, Context& context);
void add_release_command(CLI::App& app, Context& context);
void add_new_command(CLI::App& app, Context& context);
void add_validate_command(CLI::App& app, Context& context);
void add_gradescope_package_command(CLI::App& app, Context& context);
void add_classroom_command(CLI::App& app, Context& context);

// `blockcheck` with no command: check every exercise.
int run_default_check(const Context& context);

}  // namespace blockcheck
