// `blockcheck case export CASE.json OUT.safetensors`: a block case as a Hugging Face LLaMA
// layer (weights under LlamaDecoderLayer's names, config.json), for checking an implementation
// in the engineer's own framework.
#include "checker/block/block_case_files.hpp"
#include "checker/common/cli.hpp"

#include <fmt/format.h>

namespace blockcheck {

void add_case_command(CLI::App& app, Context& context) {
    CLI::App* cmd = app.add_subcommand("case", "work with block case files");
    cmd->require_subcommand(1);
    struct Paths {
        std::string case_file, out;
    };
    auto paths = std::make_shared<Paths>();
    CLI::App* exp = cmd->add_subcommand(
        "export", "write a case's weights and input as .safetensors with Hugging Face LLaMA names, and a config.json");
    exp->add_option("case", paths->case_file, "block case file (JSON)")->required();
    exp->add_option("out", paths->out, "the .safetensors file to write (config.json and OUT.case.json go beside it)")
        ->required();
    exp->callback([&context, paths] {
        context.run = [&context, paths] {
            if (!std::string_view(paths->out).ends_with(".safetensors"))
                throw InputFileError(paths->out + ": the output file must end in .safetensors");
            for (const auto& file : export_case(paths->case_file, paths->out))
                fmt::print("{} {}\n", tr(context.lang, "wrote", "已写入"), file.string());
            return 0;
        };
    });
}

}  // namespace blockcheck
