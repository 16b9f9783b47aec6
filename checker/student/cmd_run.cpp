// `blockcheck run ID [--variant SEED]`: the program on its inputs, shown but not graded.
#include "checker/common/cli.hpp"
#include "checker/exercise/variants.hpp"
#include "checker/student/workspace.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

int run(const Context& context, const std::string& id, std::optional<std::uint64_t> variant) {
    const Workspace workspace(context.root);
    const Exercise& e = workspace.exercises().at(id);
    const Lang lang = context.lang;
    const InputList inputs = variant ? variant_inputs(e, *variant) : e.inputs;
    const CompileResult build = compile_program(workspace.source_of(e), workspace.settings().include_dir,
                                                workspace.settings().cache_dir);
    if (!build.ok()) {
        fmt::print(stderr, "{}\n{}", tr(lang, "does not compile:", "无法编译："), build.diagnostics);
        return 1;
    }
    if (variant) fmt::print("# {} {}\n", tr(lang, "variant", "变体"), *variant);
    fmt::print("# {}\n{}", tr(lang, "input (standard input):", "输入（标准输入）："), input_text(inputs));
    const RunResult result = run_process({build.binary.string()}, input_text(inputs), workspace.settings().limits);
    fmt::print("# {}\n{}", tr(lang, "output (standard output):", "输出（标准输出）："), result.out);
    if (!result.out.empty() && result.out.back() != '\n') fmt::print("\n");
    if (!result.err.empty()) fmt::print("# {}\n{}\n", tr(lang, "standard error:", "标准错误："), result.err);
    const bool ok = result.status == RunStatus::exited && result.exit_code == 0;
    if (!ok)
        fmt::print("# {}: {} {}\n", tr(lang, "ended", "结束"), to_string(result.status),
                   result.status == RunStatus::exited ? result.exit_code : result.signal);
    return ok ? 0 : 1;
}

}  // namespace

void add_run_command(CLI::App& app, Context& context) {
    auto id = std::make_shared<std::string>();
    auto variant = std::make_shared<std::optional<std::uint64_t>>();
    CLI::App* cmd = app.add_subcommand("run", "run your program on the book's inputs (or a variant's), ungraded");
    cmd->add_option("id", *id, "exercise id")->required();
    cmd->add_option("--variant", *variant, "use the inputs of this variant seed");
    cmd->callback([&context, id, variant] { context.run = [&context, id, variant] { return run(context, *id, *variant); }; });
}

}  // namespace blockcheck
