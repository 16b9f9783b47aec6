// `blockcheck case export CASE.json OUT.safetensors`: a block case as a Hugging Face LLaMA
// layer (weights under LlamaDecoderLayer's names, config.json), for checking an implementation
// in the engineer's own framework. `blockcheck case new OUT.json`: a case with random weights
// from a config.json or options (GQA, another rope_theta, a rope_scaling).
#include "checker/block/block_case_files.hpp"
#include "checker/block/case_new.hpp"
#include "checker/common/cli.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

void add_export_command(CLI::App& cmd, Context& context) {
    struct Paths {
        std::string case_file, out;
        ExportOptions options;
    };
    auto paths = std::make_shared<Paths>();
    CLI::App* exp = cmd.add_subcommand(
        "export", "write a case's weights and input as .safetensors with Hugging Face LLaMA names, and a config.json");
    exp->add_option("case", paths->case_file, "block case file (JSON)")->required();
    exp->add_option("out", paths->out, "the .safetensors file to write (config.json and OUT.case.json go beside it)")
        ->required();
    exp->add_flag("--force", paths->options.force, "overwrite files that exist (else nothing is written when one does)");
    exp->add_flag("--npy", paths->options.npy, "also write OUT_npy/NAME.npy, one a tensor, for readers with numpy alone");
    exp->callback([&context, paths] {
        context.run = [&context, paths] {
            if (!std::string_view(paths->out).ends_with(".safetensors"))
                throw InputFileError(paths->out + ": the output file must end in .safetensors");
            for (const auto& file : export_case(paths->case_file, paths->out, paths->options))
                fmt::print("{} {}\n", tr(context.lang, "wrote", "已写入"), file.string());
            fmt::print("{}\n", tr(context.lang,
                                  "the .case.json is the layer as Hugging Face computes it, in half layout (RoPE pairs "
                                  "(i, i + d/2)): compare a Hugging Face port against it, or against an interleaved "
                                  "original with compare --layout half",
                                  ".case.json 即 Hugging Face 计算的这一层，为 half 布局（RoPE 配对 (i, i + d/2)）："
                                  "Hugging Face 移植可直接与它对照，与 interleaved 原用例对照时请给 compare 加 --layout half"));
            return 0;
        };
    });
}

void add_new_command(CLI::App& cmd, Context& context) {
    struct New {
        std::string out;
        NewCaseOptions options;
        std::string family;  // --family: a checkpoint folder of that model family instead
    };
    auto n = std::make_shared<New>();
    NewCaseOptions& o = n->options;
    CLI::App* sub = cmd.add_subcommand("new", "make a block case with random weights from a Hugging Face config.json or options");
    sub->add_option("out", n->out, "the case file to write (.json)")->required();
    sub->add_option("--config", o.hf_config, "a Hugging Face config.json (LlamaConfig's fields); options override it");
    sub->add_option("--hidden-size", o.hidden_size, "C (default 16)");
    sub->add_option("--query-heads", o.query_heads, "query heads (default 4)");
    sub->add_option("--kv-heads", o.kv_heads, "KV heads, dividing the query heads (default: as many as query heads)");
    sub->add_option("--head-dim", o.head_dim, "coordinates per head, even (default hidden-size / query-heads)");
    sub->add_option("--ffn-hidden-size", o.ffn_hidden_size, "F, the gate's and up's width (default 3 C rounded up to 8)");
    sub->add_option("--rms-norm-eps", o.rms_norm_eps, "RMSNorm's epsilon, a decimal (default 0.00001)");
    sub->add_option("--rope-theta", o.rope_theta, "RoPE's base, a decimal (default 10000)");
    sub->add_option("--rope-scaling", o.rope_scaling,
                    "rope_scaling as JSON, as Hugging Face writes it ('{\"rope_type\": \"llama3\", \"factor\": 8, ...}'), "
                    "or none");
    sub->add_option("--rope-layout", o.rope_layout,
                    "interleaved (pairs (2i, 2i + 1); default) or half (pairs (i, i + d/2); default with --config)")
        ->check(CLI::IsMember({"interleaved", "half"}));
    sub->add_option("--max-position-embeddings", o.max_position_embeddings, "the model's context (L0 of rope_scaling)");
    sub->add_option("--rows", o.rows, "input rows T")->capture_default_str();
    sub->add_option("--start-position", o.start_position, "the first row's position")->capture_default_str();
    sub->add_option("--input-rms", o.input_rms, "each input row's root mean square (small rows show epsilon mistakes)")
        ->capture_default_str();
    sub->add_option("--seed", o.seed, "the random weights' seed")->capture_default_str();
    sub->add_flag("--force", o.force, "overwrite files that exist");
    sub->add_option("--family", n->family,
                    "write OUT as a small checkpoint folder of this model family instead (llama, mistral, qwen2, qwen3, "
                    "gemma2, gemma3 (nested under text_config), gemma3_text, phi3, olmo2): config.json, model.safetensors, hidden.npy; with --rows, --seed")
        ->check(CLI::IsMember(std::vector<std::string>(std::begin(family_names), std::end(family_names))));
    sub->callback([&context, n, sub] {
        context.run = [&context, n, sub] {
            if (!n->family.empty()) {
                const std::size_t rows = sub->get_option("--rows")->count() ? n->options.rows : 8;
                const FamilyFolder f{n->family, rows, n->options.seed, n->options.force};
                for (const auto& file : write_family_folder(n->out, f))
                    fmt::print("{} {}\n", tr(context.lang, "wrote", "已写入"), file.string());
                return 0;
            }
            const NewCase made = write_new_case(n->out, n->options);
            for (const Text& note : made.notes) fmt::print("{}\n", note.in(context.lang));
            for (const auto& file : made.files)
                fmt::print("{} {}\n", tr(context.lang, "wrote", "已写入"), file.string());
            return 0;
        };
    });
}

}  // namespace

void add_case_command(CLI::App& app, Context& context) {
    CLI::App* cmd = app.add_subcommand("case", "work with block case files");
    cmd->require_subcommand(1);
    add_export_command(*cmd, context);
    add_new_command(*cmd, context);
}

}  // namespace blockcheck
