// The student side's commands: what a student runs, in both editions.
#pragma once

#include "checker/common/cli.hpp"

namespace blockcheck {

void add_check_command(CLI::App& app, Context& context);
void add_watch_command(CLI::App& app, Context& context);
void add_list_command(CLI::App& app, Context& context);
void add_show_command(CLI::App& app, Context& context);
void add_hint_command(CLI::App& app, Context& context);
void add_run_command(CLI::App& app, Context& context);

// `blockcheck` with no command: check every exercise.
int run_default_check(const Context& context);

// All of the above, with `check` as what runs when no command is given.
void add_student_commands(CLI::App& app, Context& context);

}  // namespace blockcheck
