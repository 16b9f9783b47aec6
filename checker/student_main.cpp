// blockcheck, the student edition: the student side's commands, graded against the expected
// answers `blockcheck release` computed into data/expected/. It is the main of the student target
// (data/release/product.txt): CMakeLists.txt builds it as blockcheck-student, and the
// student edition as its blockcheck.
#include "checker/exercise/expected.hpp"
#include "checker/student/commands.hpp"

namespace blockcheck {

// This edition's expected answers (see expected.hpp): the ones release wrote.
std::shared_ptr<const ExpectedAnswers> edition_answers(const std::filesystem::path& root) {
    return answers_from_data(root);
}

}  // namespace blockcheck

int main(int argc, char** argv) {
    return blockcheck::run_command_line(argc, argv, BLOCKCHECK_SOURCE_DIR, {blockcheck::add_student_commands});
}
