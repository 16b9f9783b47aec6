// `blockcheck rerun ID|all`: replays worked examples step by step, every intermediate value,
// at the book's six decimals or at --digits significant digits.
#include "checker/common/cli.hpp"
#include "checker/verify/rerun_catalog.hpp"
#include "checker/verify/rerun_format.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace blockcheck {
namespace {

struct RerunOptions {
    std::vector<std::string> ids;
    int digits = 0;  // 0: as the book prints
    bool list = false;
};

// A matrix one row a line, each column padded to its widest element.
template <class T>
void print_matrix(const Step<T>& step, int digits) {
    std::vector<std::vector<std::string>> cells(step.value.rows);
    std::vector<std::size_t> width(step.value.cols, 0);
    for (std::size_t r = 0; r < step.value.rows; ++r)
        for (std::size_t c = 0; c < step.value.cols; ++c) {
            cells[r].push_back(format_number(step.value(r, c), step.kind, digits));
            width[c] = std::max(width[c], cells[r].back().size());
        }
    for (const auto& row : cells) {
        std::string line = "    [";
        for (std::size_t c = 0; c < row.size(); ++c) line += fmt::format("{}{:>{}}", c ? ", " : "", row[c], width[c]);
        fmt::print("{}]\n", line);
    }
}

template <class T>
void print_worked(const Worked<T>& w, int digits, Lang lang) {
    const std::string precision = digits == 0
        ? fmt::format("{}", tr(lang, "values to 6 decimals, as the book prints them", "数值保留 6 位小数，与书中一致"))
        : fmt::format(fmt::runtime(std::string(tr(lang, "values to {} significant digits", "数值保留 {} 位有效数字"))), digits);
    fmt::print("{} — {}\n{} · {}\n\n", w.id, w.title.in(lang), w.source.in(lang), precision);
    for (const Step<T>& step : w.steps) {
        fmt::print("  {}: {}{}\n", step.id, step.what.in(lang), step.shape.empty() ? "" : "  " + step.shape);
        if (step.form == StepForm::matrix && step.kind != StepKind::undefined) print_matrix(step, digits);
        else fmt::print("    {}\n", format_inline(step, digits));
    }
    fmt::print("\n");
}

template <class T>
int rerun_at(const Context& context, const std::vector<std::string>& ids, int digits) {
    for (const std::string& id : ids) print_worked(compute_worked<T>(id, context.root), digits, context.lang);
    return 0;
}

int list_worked(const Context& context) {
    for (const std::string& id : worked_ids()) {
        const Worked<Mpfr50> w = compute_worked<Mpfr50>(id, context.root);
        fmt::print("{:<18} {:>3} {}  {}\n", id, w.steps.size(), tr(context.lang, "steps", "步"), w.title.in(context.lang));
    }
    fmt::print("\n{}\n", tr(context.lang,
                            "Aliases: table-25.1 = 25.1; config = 25.4; the worked-example ids of `blockcheck list` name their sections.",
                            "别名：table-25.1 即 25.1；config 即 25.4；`blockcheck list` 中例题的 id 指向对应小节。"));
    return 0;
}

int rerun(const Context& context, const RerunOptions& options) {
    if (options.list) return list_worked(context);
    if (options.ids.empty()) {
        fmt::print(stderr, "blockcheck rerun: {}\n", tr(context.lang, "name a worked example, `all`, or use --list",
                                                         "请给出例题 id、`all`，或使用 --list"));
        return 2;
    }
    std::vector<std::string> ids;
    for (const std::string& name : options.ids) {
        if (name == "all") {
            ids.insert(ids.end(), worked_ids().begin(), worked_ids().end());
            continue;
        }
        const std::string id = resolve_worked_id(name);
        if (id.empty()) {
            fmt::print(stderr, "blockcheck rerun: {} '{}'; {}\n", tr(context.lang, "no worked example", "没有例题"), name,
                       tr(context.lang, "`blockcheck rerun --list` lists them", "`blockcheck rerun --list` 列出全部例题"));
            return 2;
        }
        ids.push_back(id);
    }
    // 50 digits carry every step to 45 correct digits; beyond that, compute at 100.
    return options.digits > 45 ? rerun_at<Mpfr100>(context, ids, options.digits)
                               : rerun_at<Mpfr50>(context, ids, options.digits);
}

}  // namespace

void add_rerun_command(CLI::App& app, Context& context) {
    auto options = std::make_shared<RerunOptions>();
    CLI::App* cmd = app.add_subcommand("rerun", "replay a worked example step by step, with every intermediate value (--lang zh|en for the prose)");
    cmd->add_option("id", options->ids, "worked example id (25.1, 25.2, 25.3, table-25.2, 25.4, figure-25.1, gqa_long_context-..., properties) or all");
    cmd->add_option("--digits", options->digits, "significant digits to print (default: 6 decimals, as the book)")
        ->check(CLI::Range(1, 95));
    cmd->add_flag("--list", options->list, "list the worked examples");
    cmd->callback([&context, options] { context.run = [&context, options] { return rerun(context, *options); }; });
}

}  // namespace blockcheck
