#include "checker/block/mistake_match.hpp"

#include "solutions/block/block_mistakes.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace blockcheck {
namespace {

// The stages of `trace` that `given` carries (named in `names`), in the trace's order.
Trace<Mpfr50> stages_named(const Trace<Mpfr50>& trace, const std::vector<std::string>& names) {
    Trace<Mpfr50> kept;
    for (const auto& [name, value] : trace)
        if (std::find(names.begin(), names.end(), name) != names.end()) kept.add(name, value);
    return kept;
}

std::vector<std::string> names_of(const Trace<Mpfr50>& trace) {
    std::vector<std::string> names;
    for (const auto& entry : trace) names.push_back(entry.first);
    return names;
}

bool all_within(const std::vector<StageErrors>& stages) {
    return std::all_of(stages.begin(), stages.end(), [](const StageErrors& s) { return s.within(); });
}

// The block's trace on the case with `mistake` made; nullopt when the mistake cannot be made on
// it (a zero row with epsilon a tenth of zero, ...).
std::optional<Trace<Mpfr50>> trace_with(const BlockCase<Mpfr50>& bc, const MistakeEntry& mistake) {
    BlockCase<Mpfr50> changed = bc;
    if (!make_porting_mistake(changed.config, mistake.id))
        throw std::logic_error("data/mistakes.json: " + mistake.id +
                               " is a port mistake that solutions/block/block_mistakes.hpp does not make");
    Trace<Mpfr50> trace;
    try {
        block_case_forward(changed, &trace);
    } catch (const std::domain_error&) {
        return std::nullopt;
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    }
    return trace;
}

}  // namespace

MistakeSearch search_porting_mistakes(const BlockCase<Mpfr50>& bc, const Trace<Mpfr50>& given,
                                      const Trace<Mpfr50>& reference, DType dtype, std::optional<double> rtol,
                                      std::optional<double> atol) {
    const MistakeRun run_with = [&bc](const MistakeEntry& mistake) { return trace_with(bc, mistake); };
    return search_porting_mistakes(run_with, bc.config, bc.cached.size() + bc.input.rows, given, reference, dtype, rtol,
                                   atol);
}

MistakeSearch search_porting_mistakes(const MistakeRun& run_with, const BlockConfig<Mpfr50>& config, std::size_t keys,
                                      const Trace<Mpfr50>& given, const Trace<Mpfr50>& reference, DType dtype,
                                      std::optional<double> rtol, std::optional<double> atol) {
    const std::vector<std::string> shown = names_of(given);
    const std::vector<StageErrors> against_reference = compare_stages(given, reference, config, keys, dtype, rtol, atol);
    const StageErrors* first = first_stage_outside(against_reference);
    // Where the given output shows its mistake, and the output itself.
    std::vector<std::string> telling{"output"};
    if (first && first->name != "output") telling.insert(telling.begin(), first->name);
    const Trace<Mpfr50> given_telling = stages_named(given, telling);

    MistakeSearch search;
    for (const MistakeEntry& mistake : mistake_catalogue()) {
        if (!mistake.port) continue;
        const std::optional<Trace<Mpfr50>> with = run_with(mistake);
        if (!with) continue;
        ++search.tried;
        const Trace<Mpfr50> seen = stages_named(*with, shown);
        if (all_within(compare_stages(seen, reference, config, keys, dtype, rtol, atol))) {
            search.not_visible.push_back(&mistake);
            continue;
        }
        if (!first) continue;
        const std::vector<StageErrors> against_mistake =
            compare_stages(given_telling, *with, config, keys, dtype, rtol, atol);
        if (all_within(against_mistake))
            search.named.push_back({&mistake, first->name, against_mistake.front().normwise / epsilon(dtype)});
    }
    return search;
}

std::string porting_mistakes_table() {
    std::string table = "| id | the one thing it changes | what a case needs to show it |\n|---|---|---|\n";
    for (const MistakeEntry& m : mistake_catalogue())
        if (m.port) table += fmt::format("| `{}` | {} | {} |\n", m.id, m.changes.en, m.shown_by.en);
    return table;
}

}  // namespace blockcheck
