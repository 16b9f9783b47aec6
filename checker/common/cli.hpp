// The `blockcheck` command line: what every subcommand reads, and the main both editions share;
// each side registers its subcommands on the CLI11 app.
#pragma once

#include "checker/common/i18n.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <initializer_list>

namespace blockcheck {

// What every subcommand may read: where the project lives, the language, the terminal.
struct Context {
    std::filesystem::path root;  // the repository (data/, chapters/)
    Lang lang = Lang::en;
    bool color = false;           // stdout is a terminal and NO_COLOR is unset
    std::function<int()> run;     // set by the chosen subcommand's callback
};

// A side's commands: registers its subcommands on the app (checker/student/commands.hpp,
// checker/course/commands.hpp). A side may set context.run beforehand: what runs when no
// subcommand is given.
using AddCommands = void (*)(CLI::App& app, Context& context);

// The one command line of both editions, each main passing its sides' commands: parses argv and
// runs the chosen command. Exit 0 on success, 2 for bad input or usage (an InputFileError), 3 for
// an internal error. The repository is BLOCKCHECK_ROOT when set, else `built_at`.
int run_command_line(int argc, char** argv, const std::filesystem::path& built_at,
                     std::initializer_list<AddCommands> sides);

}  // namespace blockcheck
