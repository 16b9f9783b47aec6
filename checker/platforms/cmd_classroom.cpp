// `blockcheck classroom OUT_DIR`: GitHub Classroom's autograding workflow — one step of the
// command-grader action per exercise, worth its points, running `./blockcheck check ID
// --exit-code` — and a STUDENTS.md saying how it works. The YAML has one fixed shape,
// documented in docs/platforms.md, so that it can be read back line by line.
#include "checker/common/cli.hpp"
#include "checker/common/files.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/course/assignment.hpp"
#include "checker/exercise/exercise_set.hpp"
#include "checker/outputs/gradebook.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace blockcheck {
namespace {

namespace fs = std::filesystem;

struct ClassroomOptions {
    std::string out;
    ExerciseChoice choice;  // --chapter, --assignment, --exercises
    int timeout_minutes = 2;
};

// Step ids, test names and environment names are built from exercise ids: plain words only.
const std::string& plain_id(const std::string& id) {
    const bool plain = !id.empty() && std::all_of(id.begin(), id.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
    if (!plain) throw InputFileError("classroom: exercise id '" + id + "' is not a plain word (letters, digits, _)");
    return id;
}

std::string upper(std::string text) {
    for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

std::string workflow_head() {
    return "# GitHub Classroom autograding, written by `blockcheck classroom` (docs/platforms.md).\n"
           "# One test per exercise: `./blockcheck check ID --exit-code` passes with full marks only.\n"
           "name: Autograding Tests\n"
           "'on':\n"
           "- push\n"
           "- repository_dispatch\n"
           "permissions:\n"
           "  checks: write\n"
           "  actions: read\n"
           "  contents: read\n"
           "jobs:\n"
           "  run-autograding-tests:\n"
           "    runs-on: ubuntu-24.04\n"
           "    if: github.actor != 'github-classroom[bot]'\n"
           "    steps:\n"
           "    - name: Checkout code\n"
           "      uses: actions/checkout@v4\n"
           "    - name: Install the packages and build blockcheck\n"
           "      run: sudo apt-get update && sudo apt-get install -y --no-install-recommends $(./blockcheck --packages) && ./blockcheck list > /dev/null\n";
}

std::string test_step(const Exercise& e, int timeout_minutes) {
    const std::string& id = plain_id(e.id);
    return fmt::format("    - name: {0}\n"
                       "      id: {0}\n"
                       "      uses: classroom-resources/autograding-command-grader@v1\n"
                       "      with:\n"
                       "        test-name: {0}\n"
                       "        setup-command: ''\n"
                       "        command: ./blockcheck check {0} --exit-code\n"
                       "        timeout: {1}\n"
                       "        max-score: {2}\n",
                       id, timeout_minutes, score_text(e.max_score()));
}

std::string reporter_step(const std::vector<Exercise>& exercises) {
    std::string env, runners;
    for (const Exercise& e : exercises) {
        env += fmt::format("        {}_RESULTS: \"${{{{steps.{}.outputs.result}}}}\"\n", upper(e.id), e.id);
        runners += (runners.empty() ? "" : ",") + e.id;
    }
    return "    - name: Autograding Reporter\n"
           "      uses: classroom-resources/autograding-grading-reporter@v1\n"
           "      env:\n" + env +
           "      with:\n"
           "        runners: " + runners + "\n";
}

std::string workflow_yaml(const ExerciseSet& set, int timeout_minutes) {
    std::string yaml = workflow_head();
    for (const Exercise& e : set.all()) yaml += test_step(e, timeout_minutes);
    return yaml + reporter_step(set.all());
}

std::string students_md(const ExerciseSet& set, double points, Lang lang) {
    std::string table;
    for (const Exercise& e : set.all())
        table += fmt::format("| `{}` | `{}` | {} |\n", e.id, e.source, score_text(e.max_score()));
    if (lang == Lang::zh)
        return fmt::format("# 自动评分\n\n"
                           "每次 push 后，GitHub Classroom 会为每道练习运行一次 `./blockcheck check 练习ID --exit-code`；"
                           "只有该练习全部答对才得分，共 {} 道练习、{} 分。\n\n"
                           "在本地先运行 `./blockcheck`，看哪些练习还没完成；`./blockcheck check 练习ID` 会逐项说明错在哪里，"
                           "`./blockcheck hint 练习ID` 给出提示。结果在仓库的 Actions 页中的 “Autograding Tests” 里。\n\n"
                           "| 练习 | 文件 | 分值 |\n|---|---|---|\n{}",
                           set.all().size(), score_text(points), table);
    return fmt::format("# Autograding\n\n"
                       "On every push, GitHub Classroom runs `./blockcheck check ID --exit-code` once per exercise; an exercise "
                       "earns its points only when every part is right. There are {} exercises worth {} points.\n\n"
                       "Run `./blockcheck` on your machine first to see what is left; `./blockcheck check ID` says what is wrong "
                       "part by part and `./blockcheck hint ID` gives a hint. The results are under \"Autograding Tests\" in "
                       "your repository's Actions tab.\n\n"
                       "| exercise | file | points |\n|---|---|---|\n{}",
                       set.all().size(), score_text(points), table);
}

int classroom(const Context& context, const ClassroomOptions& o) {
    if (o.timeout_minutes < 1 || o.timeout_minutes > 60)
        throw InputFileError("classroom: --timeout is in minutes, from 1 to 60 (the command grader's limit)");
    const ExerciseSet set = chosen_exercises(ExerciseSet::load(context.root), o.choice);
    double points = 0;
    for (const Exercise& e : set.all()) points += e.max_score();
    const fs::path workflows = fs::path(o.out) / ".github" / "workflows";
    fs::create_directories(workflows);
    write_file_atomically(workflows / "classroom.yml", workflow_yaml(set, o.timeout_minutes));
    write_file_atomically(fs::path(o.out) / "STUDENTS.md", students_md(set, points, context.lang));
    fmt::print("{}\n", fmt::format(fmt::runtime(tr(context.lang, "wrote {}: {} tests, {} points; and {}",
                                                   "已写入 {}：{} 项测试，共 {} 分；以及 {}")),
                                   (workflows / "classroom.yml").string(), set.all().size(), score_text(points),
                                   (fs::path(o.out) / "STUDENTS.md").string()));
    return 0;
}

}  // namespace

void add_classroom_command(CLI::App& app, Context& context) {
    auto o = std::make_shared<ClassroomOptions>();
    CLI::App* cmd = app.add_subcommand("classroom", "write GitHub Classroom's autograding workflow and STUDENTS.md into a folder");
    cmd->add_option("out", o->out, "the assignment's template repository (gets .github/workflows/classroom.yml)")->required();
    add_exercise_choice(cmd, o->choice);
    cmd->add_option("--timeout", o->timeout_minutes, "minutes each test may take (the command grader's unit)")->capture_default_str();
    cmd->footer("Copy both into the assignment's template repository, made from the student edition (`blockcheck release`).\n"
                "The workflow installs the Debian/Ubuntu packages, builds blockcheck once, then runs one test per exercise.\n"
                "Its shape is described in docs/platforms.md.");
    cmd->callback([&context, o] { context.run = [&context, o] { return classroom(context, *o); }; });
}

}  // namespace blockcheck
