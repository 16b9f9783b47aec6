// blockcheck, the full edition: exercises, grading and verification for the RoPE / RMSNorm /
// SwiGLU chapter. The student side's commands and the course side's; the expected answers are the
// reference solutions' (checker/course/expected_reference.cpp, linked with the course side).
#include "bench/bench.hpp"
#include "checker/course/commands.hpp"
#include "checker/student/commands.hpp"

int main(int argc, char** argv) {
    using namespace blockcheck;
    return run_command_line(argc, argv, BLOCKCHECK_SOURCE_DIR,
                            {add_student_commands, add_course_commands, add_bench_command});
}
