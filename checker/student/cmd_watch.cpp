// `blockcheck watch`: check again on every save, rustlings-style.
#include "checker/common/cli.hpp"
#include "checker/student/board.hpp"
#include "checker/student/workspace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>

namespace blockcheck {
namespace {

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
            const auto results = workspace.check(all, AnswerCompareOptions{reveal});
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

void add_watch_command(CLI::App& app, Context& context) {
    auto reveal = std::make_shared<bool>(false);
    CLI::App* w = app.add_subcommand("watch", "check again on every save, until Ctrl-C");
    w->add_flag("--reveal", *reveal, "show the expected value of wrong answers");
    w->callback([&context, reveal] { context.run = [&context, reveal] { return watch(context, *reveal); }; });
}

}  // namespace blockcheck
