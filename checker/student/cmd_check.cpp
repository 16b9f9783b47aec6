// `blockcheck check [ID...]`: the default command.
#include "checker/student/board.hpp"
#include "checker/common/cli.hpp"
#include "checker/student/workspace.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <random>


namespace blockcheck {
namespace {

struct CheckOptions {
    std::vector<std::string> ids;
    bool json = false, reveal = false, verbose = false, exit_code = false;
    std::optional<std::uint64_t> variant;
    int variants = 0;  // --variants K: K random variants in one command
};

// K random variants: each exercise keeps its first failing variant's result, else the last one's,
// and how many of the K it passed.
struct VariantsChecked {
    std::vector<ExerciseResult> kept;
    std::vector<int> passed;  // by exercise
};

VariantsChecked check_variants(const Workspace& workspace, const std::vector<const Exercise*>& chosen,
                               const AnswerCompareOptions& options, int count) {
    std::random_device entropy;
    // the student edition grades only the variants it carries: draw among those
    const auto carried = workspace.exercises().answers().carried_variants();
    VariantsChecked checked{{}, std::vector<int>(chosen.size(), 0)};
    for (int k = 0; k < count; ++k) {
        const std::uint64_t draw = std::uint64_t(entropy()) << 32 | entropy();
        const std::uint64_t seed = carried && !carried->empty() ? (*carried)[draw % carried->size()] : draw % 1'000'000'000;
        std::vector<ExerciseResult> results = workspace.check(chosen, options, seed);
        for (std::size_t i = 0; i < results.size(); ++i) checked.passed[i] += results[i].status == "done";
        if (checked.kept.empty()) checked.kept = std::move(results);
        else
            for (std::size_t i = 0; i < checked.kept.size(); ++i)
                if (checked.kept[i].status == "done") checked.kept[i] = std::move(results[i]);
    }
    return checked;
}

// One line after the board: how many exercises passed every variant, and the others' counts
// ("rope_later_positions 3/5"), at most eight named.
std::string variants_tally(const std::vector<const Exercise*>& chosen, const std::vector<int>& passed, int count, Lang lang) {
    std::size_t all = 0;
    std::vector<std::string> some;
    for (std::size_t i = 0; i < chosen.size(); ++i) {
        if (passed[i] == count) ++all;
        else if (some.size() < 8) some.push_back(fmt::format("{} {}/{}", chosen[i]->id, passed[i], count));
        else if (some.size() == 8) some.push_back("...");
    }
    if (all == chosen.size())
        return tr_format(lang, "{k} variants each: every exercise passed all of them.\n", "每题 {k} 组变体：全部通过。\n",
                         fmt::arg("k", count));
    return tr_format(lang, "{k} variants each: {all} of {n} exercises passed all of them; not all passed: {list}.\n",
                     "每题 {k} 组变体：{n} 题中 {all} 题全部通过；未全部通过：{list}。\n", fmt::arg("k", count),
                     fmt::arg("all", all), fmt::arg("n", chosen.size()), fmt::arg("list", fmt::join(some, ", ")));
}

int check(const Context& context, const CheckOptions& o) {
    const Workspace workspace(context.root);
    if (o.variant) require_carried_variant(workspace.exercises().answers(), *o.variant, context.lang);
    const auto chosen = workspace.select(o.ids);
    if (o.variants < 0 || (o.variants > 0 && o.variant)) {
        fmt::print(stderr, "blockcheck: --variants K takes K >= 1 and does not go with --variant\n");
        return 2;
    }
    VariantsChecked checked;
    if (o.variants > 0) checked = check_variants(workspace, chosen, AnswerCompareOptions{o.reveal}, o.variants);
    const auto results =
        o.variants > 0 ? checked.kept : workspace.check(chosen, AnswerCompareOptions{o.reveal}, o.variant);
    bool all_done = true;
    for (const ExerciseResult& r : results)
        // --exit-code: full marks decide (a credited grader fault counts), not the status; never
        // while the probe's variant finds a part wrong (the book's numbers printed included).
        all_done = all_done && (o.exit_code ? fully_done(r) : r.status == "done");
    if (o.json) {
        fmt::print("{}\n", results_json(results, context.lang).dump(2));
        return all_done ? 0 : 1;
    }
    const BoardStyle style{context.lang, context.color, o.variants > 0 || o.variant.has_value()};
    if (!o.ids.empty() || o.verbose)
        for (std::size_t i = 0; i < chosen.size(); ++i) fmt::print("{}\n", render_parts(*chosen[i], results[i], style));
    fmt::print("{}", render_board(workspace.exercises(), chosen, results, style));
    if (o.variants > 0) fmt::print("{}", variants_tally(chosen, checked.passed, o.variants, context.lang));
    return all_done ? 0 : 1;
}

}  // namespace

int run_default_check(const Context& context) { return check(context, CheckOptions{}); }

void add_check_command(CLI::App& app, Context& context) {
    auto o = std::make_shared<CheckOptions>();
    CLI::App* cmd = app.add_subcommand("check", "build, run and grade your exercise programs (the default command)");
    cmd->add_option("ids", o->ids, "exercises to check, with every part shown (default: all)");
    cmd->add_flag("--json", o->json, "print the results as JSON");
    cmd->add_flag("--reveal", o->reveal, "show the expected value of wrong answers");
    cmd->add_flag("-v,--verbose", o->verbose, "show every part of every exercise");
    cmd->add_flag("--exit-code", o->exit_code,
                  "exit 0 only when every exercise checked has full marks, 1 otherwise (for CI and GitHub Classroom)");
    cmd->add_option("--variant", o->variant, "check on the inputs of this variant seed instead of the book's");
    cmd->add_option("--variants", o->variants, "check on K random variants in one go (each exercise shows its first failing one)");
    cmd->callback([&context, o] { context.run = [&context, o] { return check(context, *o); }; });
}

}  // namespace blockcheck
