#include "checker/student/commands.hpp"

namespace blockcheck {

void add_student_commands(CLI::App& app, Context& context) {
    add_check_command(app, context);
    add_watch_command(app, context);
    add_list_command(app, context);
    add_show_command(app, context);
    add_hint_command(app, context);
    add_run_command(app, context);
    context.run = [&context] { return run_default_check(context); };
}

}  // namespace blockcheck
