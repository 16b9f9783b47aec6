// `blockcheck check [ID...]` (the default command) and `blockcheck watch`.
#include "board.hpp"
#include "cli.hpp"
#include "workspace.hpp"

#include <fmt/format.h>

#include <chrono>
#include <thread>

namespace blockcheck {
namespace {

struct CheckOptions {
    std::vector<std::string> ids;
    bool json = false, reveal = false, verbose = false;
    std::optional<std::uint64_t> variant;
};

int check(const Context& context, const CheckOptions& o) {
    const Workspace workspace(context.root);
    const auto chosen = workspace.select(o.ids);
    const auto results = workspace.check(chosen, CompareOptions{o.reveal}, o.variant);
    bool all_done = true;
    for (const ExerciseResult& r : results) all_done = all_done && r.status == "done";
    if (o.json) {
        fmt::print("{}\n", results_json(results, context.lang).dump(2));
        return all_done ? 0 : 1;
    }
    const BoardStyle style{context.lang, context.color};
    if (!o.ids.empty() || o.verbose)
        for (std::size_t i = 0; i < chosen.size(); ++i) fmt::print("{}\n", render_parts(*chosen[i], results[i], style));
    fmt::print("{}", render_board(workspace.exercises(), chosen, results, style));
    return all_done ? 0 : 1;
}

// Modification time and size of every file a check depends on.
using Fingerprint = std::map<std::string, std::pair<std::filesystem::file_time_type, std::uintmax_t>>;

Fingerprint fingerprint(const Workspace& workspace) {
    Fingerprint f;
    std::error_code ec;
    auto add = [&](const std::filesystem::path& p) {
        auto time = std::filesystem::last_write_time(p, ec);
        auto size = ec ? 0 : std::filesystem::file_size(p, ec);
        f[p.string()] = {time, size};
    };
    for (const Exercise& e : workspace.exercises().all()) add(workspace.source_of(e));
    add(workspace.root() / "chapters" / "blockcheck.hpp");
    return f;
}

int watch(const Context& context, bool reveal) {
    const Workspace workspace(context.root);
    const auto all = workspace.select({});
    const BoardStyle style{context.lang, context.color};
    Fingerprint seen;
    for (;;) {
        Fingerprint now = fingerprint(workspace);
        if (now != seen) {
            std::vector<const Exercise*> changed;
            for (const Exercise* e : all)
                if (seen.empty() || now[workspace.source_of(*e).string()] != seen[workspace.source_of(*e).string()])
                    changed.push_back(e);
            if (changed.empty()) changed = all;  // the header changed
            seen = now;
            const auto results = workspace.check(all, CompareOptions{reveal});
            if (context.color) fmt::print("\x1b[2J\x1b[H");
            for (std::size_t i = 0; i < all.size(); ++i)
                if (std::find(changed.begin(), changed.end(), all[i]) != changed.end() && changed.size() < all.size() &&
                    results[i].status != "not_done")
                    fmt::print("{}\n", render_parts(*all[i], results[i], style));
            fmt::print("{}\n{}\n", render_board(workspace.exercises(), all, results, style),
                       tr(context.lang, "Watching chapters/ for changes; Ctrl-C to stop.", "正在监视 chapters/ 的改动；按 Ctrl-C 结束。"));
            std::fflush(stdout);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
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
    cmd->add_option("--variant", o->variant, "check on the inputs of this variant seed instead of the book's");
    cmd->callback([&context, o] { context.run = [&context, o] { return check(context, *o); }; });

    auto reveal = std::make_shared<bool>(false);
    CLI::App* w = app.add_subcommand("watch", "check again on every save, until Ctrl-C");
    w->add_flag("--reveal", *reveal, "show the expected value of wrong answers");
    w->callback([&context, reveal] { context.run = [&context, reveal] { return watch(context, *reveal); }; });
}

}  // namespace blockcheck
