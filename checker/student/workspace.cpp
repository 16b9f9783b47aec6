#include "checker/student/workspace.hpp"

#include "checker/common/files.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/student/board.hpp"
#include "checker/exercise/variants.hpp"
#include "checker/run/cache_prune.hpp"

#include <future>

namespace blockcheck {

namespace {
// The student's compile cache, at most: some 400 binaries with their records, besides the
// precompiled header and the header's object.
constexpr std::uintmax_t cache_limit_bytes = std::uintmax_t{256} << 20;

// The exercises, at the points of the assignment an edition was released with (when it was).
ExerciseSet edition_exercises(const std::filesystem::path& root) {
    ExerciseSet all = ExerciseSet::load(root);
    const std::filesystem::path assignment = root / released_assignment;
    if (!std::filesystem::exists(assignment)) return all;
    return all.only_exercises(read_assignment(assignment).exercises);
}
}  // namespace

Workspace::Workspace(const std::filesystem::path& root)
    : root_(root), exercises_(edition_exercises(root)) {
    settings_.include_dir = root / "chapters";
    settings_.cache_dir = root / ".blockcheck" / "cache";
    settings_.remember_runs = true;  // an unchanged program is not run again
}

std::vector<const Exercise*> Workspace::select(const std::vector<std::string>& ids) const {
    std::vector<const Exercise*> chosen;
    if (ids.empty())
        for (const Exercise& e : exercises_.all()) chosen.push_back(&e);
    for (const std::string& id : ids) chosen.push_back(&exercises_.at(id));
    return chosen;
}

std::vector<ExerciseResult> Workspace::check(const std::vector<const Exercise*>& which, const AnswerCompareOptions& options,
                                             std::optional<std::uint64_t> variant) const {
    std::vector<ExerciseResult> results(which.size());
    auto check_one = [&](std::size_t i) {
        const Exercise& e = *which[i];
        const InputList inputs = variant ? variant_inputs(e, *variant) : e.inputs;
        const auto source = source_of(e);
        if (!std::filesystem::exists(source)) {
            results[i] = failed_exercise(e, Verdict::compile_error,
                                         {"no program at " + e.source, "找不到程序 " + e.source});
            return;
        }
        ProgramToJudge program{source, e.source, inputs, variant, std::nullopt};  // e.source: as the student sees it
        // every part right on the book's inputs: the same binary quietly tries one variant
        // (the student edition grades only the variants it carries: the probe is one of those)
        const auto carried = exercises().answers().carried_variants();
        if (!variant && (!carried || !carried->empty())) {
            const std::uint64_t seed = variant_seed("hard_coded_probe", e.id);
            program.probe = carried ? (*carried)[seed % carried->size()] : seed;
        }
        results[i] = judge_program(e, program, settings_, options);
    };
    // Two workers: this machine's cores; compiling dominates a cold check.
    std::size_t next = 0;
    std::mutex mutex;
    auto worker = [&] {
        for (;;) {
            std::size_t i;
            {
                std::lock_guard lock(mutex);
                if (next == which.size()) return;
                i = next++;
            }
            check_one(i);
        }
    };
    auto second = std::async(std::launch::async, worker);
    worker();
    second.get();

    for (ExerciseResult& r : results) fail_book_numbers(r);  // never done while it prints the book's numbers
    nlohmann::json statuses = read_state("status.json");
    for (const ExerciseResult& r : results) statuses[r.id] = r.status;
    write_state("status.json", statuses);
    prune_cache(settings_.cache_dir, cache_limit_bytes);
    return results;
}

std::string Workspace::last_status(const std::string& id) const {
    const nlohmann::json statuses = read_state("status.json");
    return statuses.value(id, "not_checked");
}

int Workspace::hints_shown(const std::string& id) const { return read_state("hints.json").value(id, 0); }

void Workspace::record_hint(const std::string& id, int shown) const {
    nlohmann::json hints = read_state("hints.json");
    hints[id] = shown;
    write_state("hints.json", hints);
}

nlohmann::json Workspace::read_state(const std::string& name) const {
    try {
        // the checked read: a state file that is a pipe or a link to a device is forgotten, not waited on
        const auto text = read_folder_file_if_present(root_ / ".blockcheck", name, max_json_file_bytes);
        if (!text) return nlohmann::json::object();
        nlohmann::json j = parse_json(*text, name);
        return j.is_object() ? j : nlohmann::json::object();
    } catch (const InputFileError&) {
        return nlohmann::json::object();  // a damaged state file is forgotten, not fatal
    }
}

void Workspace::write_state(const std::string& name, const nlohmann::json& value) const {
    const auto dir = root_ / ".blockcheck";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    try {
        write_file_atomically(dir / name, value.dump(2) + "\n");
    } catch (const FileWriteError&) {
        // state is a convenience; a read-only checkout still checks
    }
}

}  // namespace blockcheck
