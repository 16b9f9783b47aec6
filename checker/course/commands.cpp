#include "checker/course/commands.hpp"

namespace blockcheck {

void add_course_commands(CLI::App& app, Context& context) {
    add_grade_command(app, context);
    add_insight_command(app, context);
    add_forward_command(app, context);
    add_compare_command(app, context);
    add_rope_command(app, context);
    add_case_command(app, context);
    add_rerun_command(app, context);
    add_verify_command(app, context);
    add_explain_command(app, context);
    add_release_command(app, context);
    add_new_command(app, context);
    add_validate_command(app, context);
    add_gradescope_package_command(app, context);
    add_classroom_command(app, context);
    add_student_view_options(app, context);
}

}  // namespace blockcheck
