// The course side's commands: what needs the block, the reference solutions or a class. Only the
// full edition (checker/main.cpp) has them.
#pragma once

#include "checker/common/cli.hpp"

namespace blockcheck {

void add_grade_command(CLI::App& app, Context& context);
void add_insight_command(CLI::App& app, Context& context);
void add_forward_command(CLI::App& app, Context& context);
void add_compare_command(CLI::App& app, Context& context);
void add_rope_command(CLI::App& app, Context& context);
void add_case_command(CLI::App& app, Context& context);
void add_rerun_command(CLI::App& app, Context& context);
void add_verify_command(CLI::App& app, Context& context);
void add_explain_command(CLI::App& app, Context& context);
void add_release_command(CLI::App& app, Context& context);
void add_new_command(CLI::App& app, Context& context);
void add_validate_command(CLI::App& app, Context& context);
void add_gradescope_package_command(CLI::App& app, Context& context);
void add_classroom_command(CLI::App& app, Context& context);
// --student and --no-sandbox on the student side's `run` and `check` (registered before): a
// TA's look at one submission, run as grade runs it.
void add_student_view_options(CLI::App& app, Context& context);

// All of the above.
void add_course_commands(CLI::App& app, Context& context);

}  // namespace blockcheck
