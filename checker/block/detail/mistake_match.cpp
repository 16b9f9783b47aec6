#include "checker/block/mistake_match.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <stdexcept>

namespace blockcheck {
namespace {

std::vector<PortingMistake> expanded_catalogue() {
    std::vector<PortingMistake> all;
    for (const MistakeEntry& m : mistake_catalogue()) {
        if (!m.port) continue;
        if (m.parameter_values.empty()) all.push_back({&m, ""});
        for (const std::string& value : m.parameter_values) all.push_back({&m, value});
    }
    return all;
}

}  // namespace

const std::vector<PortingMistake>& porting_mistakes() {
    static const std::vector<PortingMistake> all = expanded_catalogue();
    return all;
}

StageJudge::StageJudge(const Trace<Mpfr50>& given, const Trace<Mpfr50>& reference, const BlockConfig<Mpfr50>& config,
                       std::size_t keys, DType dtype, std::optional<double> rtol, std::optional<double> atol,
                       std::optional<std::string> first_outside, const Trace<Mpfr50>* faithful)
    : given_(given), reference_(reference), config_(config), keys_(keys), dtype_(dtype), rtol_(rtol), atol_(atol),
      first_(std::move(first_outside)), faithful_(faithful) {}

bool StageJudge::wants(const std::string& stage) const {
    return std::any_of(given_.begin(), given_.end(), [&](const auto& entry) { return entry.first == stage; });
}

StageErrors StageJudge::errors(const std::string& stage, const Matrix<Mpfr50>& given,
                               const Matrix<Mpfr50>& reference) const {
    Trace<Mpfr50> one, against;
    one.add(stage, given);
    against.add(stage, reference);
    std::vector<StageErrors> stages = compare_stages(one, against, config_, keys_, dtype_, rtol_, atol_);
    if (stages.empty()) throw std::logic_error("no stage " + stage + " to compare");
    // held to the faithful run's error against the reference, whatever `reference` is here
    if (faithful_ && !rtol_ && !atol_)
        for (const auto& [name, run] : *faithful_)
            if (name == stage)
                judge_against_faithful(
                    stages.front(),
                    stage_errors(stage, run, reference_.at(stage), stages.front().tolerance, dtype_).normwise, dtype_);
    return stages.front();
}

// Visible: the run leaves the reference at a stage the given output carries. It fits the given
// output while that one is within the reference wherever the run is (before the given output's
// first departure), and within the run's tolerance at that departure and at the output.
bool StageJudge::judge(const std::string& stage, const Matrix<Mpfr50>& value) {
    const Matrix<Mpfr50>& given = given_.at(stage);
    const StageErrors moved = errors(stage, value, reference_.at(stage));
    const bool leaves_reference = !moved.within();
    visible_ = visible_ || leaves_reference;
    displacement_ = std::max(displacement_, moved.normwise);
    if (stage == "output") {
        output_displacement_eps_ = moved.normwise / epsilon(dtype_);
        output_from_given_eps_ = errors(stage, given, value).normwise / epsilon(dtype_);
    }
    const bool telling = stage == first_ || stage == "output";
    if (first_ && !past_first_ && !telling && leaves_reference) fits_ = false;  // the given output did not leave here
    if (first_ && telling && fits_) {
        const StageErrors against_run = errors(stage, given, value);
        fits_ = against_run.within();
        if (stage == first_) normwise_eps_ = against_run.normwise / epsilon(dtype_);
        compared_output_ = compared_output_ || stage == "output";
    }
    past_first_ = past_first_ || stage == first_;
    // Nothing left to learn: visible, and (with a departure to explain) shown not to fit it.
    return !(visible_ && (!first_ || !fits_));
}

bool output_rules_out(const Matrix<Mpfr50>& first_rows, const Matrix<Mpfr50>& given, const Matrix<Mpfr50>& reference,
                      const StageErrors& output, bool departure, bool explicit_tolerance) {
    using std::abs;
    using std::isfinite;
    constexpr double margin = 1 + 1e-9;  // decided only with room over the figures' own rounding to double
    const double rtol = output.tolerance.rtol, atol = output.tolerance.atol;
    double max_given = 0;
    for (const Mpfr50& g : given.values) {
        if (!isfinite(g)) return false;
        max_given = std::max(max_given, abs(g).convert_to<double>());
    }
    // A run that fits has every |given - v| <= rtol (max|v| + |v|), so max|v| <= max|given| / (1 - 2 rtol).
    const double bound = explicit_tolerance ? 0 : rtol < 0.25 ? max_given / (1 - 2 * rtol) : -1;
    if (departure && bound < 0) return false;
    const double fit_atol = explicit_tolerance ? atol : rtol * bound;
    bool visible = false, unfit = !departure;
    double moved = 0, apart = 0;
    for (std::size_t r = 0; r < first_rows.rows; ++r)
        for (std::size_t c = 0; c < first_rows.cols; ++c) {
            const Mpfr50& v = first_rows(r, c);
            if (!isfinite(v)) return false;  // left to the whole run
            const double e = abs(v - reference(r, c)).convert_to<double>(), f = abs(given(r, c) - v).convert_to<double>();
            moved = std::max(moved, e), apart = std::max(apart, f);
            visible = visible || e > margin * (atol + rtol * abs(reference(r, c)).convert_to<double>());
            unfit = unfit || f > margin * (fit_atol + rtol * abs(v).convert_to<double>());
        }
    if (output.faithful >= 0) {  // held to the faithful run's error too
        visible = visible || (output.max_reference > 0 && moved > margin * output.faithful_limit * output.max_reference);
        unfit = unfit || (bound > 0 && apart > margin * output.faithful_limit * bound);
    }
    return visible && unfit;
}

MistakeSearch search_porting_mistakes(const MistakeRun& run_with, const BlockConfig<Mpfr50>& config, std::size_t keys,
                                      const Trace<Mpfr50>& given, const Trace<Mpfr50>& reference, DType dtype,
                                      std::optional<double> rtol, std::optional<double> atol,
                                      std::optional<double> budget_seconds, const Trace<Mpfr50>* faithful) {
    const std::vector<StageErrors> against_reference =
        compare_stages(given, reference, config, keys, dtype, rtol, atol, faithful);
    const StageErrors* first = first_stage_outside(against_reference);
    const std::optional<std::string> first_name = first ? std::optional(first->name) : std::nullopt;
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    auto over_budget = [&] { return budget_seconds && seconds() > *budget_seconds; };

    MistakeSearch search;
    const StageErrors* output = nullptr;
    for (const StageErrors& s : against_reference)
        if (s.name == "output") search.given_error_eps = s.normwise / epsilon(dtype), output = &s;
    // First, each mistake's first rows alone where they settle it (most mistakes show there); one
    // whose first rows fit a departure runs whole at once (the likely name); then the whole run of
    // each one they leave open: those whose first rows are the reference's to the bit first (their
    // runs find every product in the memo), then the others. Every list stays in the catalogue's order.
    enum class State { not_made, over_budget, ruled_out, open, run };
    std::vector<State> state(porting_mistakes().size(), State::open);
    std::vector<int> rank(state.size(), 1);  // the order of the whole runs
    std::vector<std::optional<PortingMistake>> tried(state.size());
    auto run_whole = [&](std::size_t i) {
        const PortingMistake& mistake = porting_mistakes()[i];
        state[i] = State::run;
        StageJudge judge(given, reference, config, keys, dtype, rtol, atol, first_name, faithful);
        if (!run_with.run(mistake, judge)) {
            state[i] = State::not_made;
            return;
        }
        tried[i] = mistake;
        if (!judge.visible() && judge.displacement() < run_with.resolution) search.not_visible.push_back(mistake);
        else if (!judge.visible())
            // the given output nearer the block with the mistake than the reference: a suspect
            search.below_tolerance.push_back({mistake, judge.output_displacement_eps(), judge.output_from_given_eps(),
                                              judge.output_from_given_eps() < 0.5 * search.given_error_eps});
        else if (first && judge.fits()) search.named.push_back({mistake, first->name, judge.normwise_eps()});
    };
    for (std::size_t i = 0; i < state.size(); ++i) {
        const PortingMistake& mistake = porting_mistakes()[i];
        if (!run_with.made(mistake)) state[i] = State::not_made;
        if (state[i] != State::open || !run_with.first_rows || !output) continue;
        if (over_budget()) {
            state[i] = State::over_budget;
            continue;
        }
        const std::optional<Matrix<Mpfr50>> rows = run_with.first_rows(mistake);
        if (!rows) continue;
        auto rules_out = [&](bool departure) {
            return output_rules_out(*rows, given.at("output"), reference.at("output"), *output, departure, rtol || atol);
        };
        if (rules_out(first != nullptr)) state[i] = State::ruled_out;
        else if (std::equal(rows->values.begin(), rows->values.end(), reference.at("output").values.begin())) rank[i] = 0;
        else if (first && rules_out(false)) run_whole(i);  // visible on the first rows, and fitting the departure there
    }
    std::vector<std::size_t> order(state.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank[a] < rank[b]; });
    for (std::size_t i : order) {
        if (state[i] == State::open && over_budget()) state[i] = State::over_budget;
        if (state[i] == State::open) run_whole(i);
    }
    for (std::size_t i = 0; i < state.size(); ++i) {
        const PortingMistake& mistake = porting_mistakes()[i];
        if (state[i] == State::not_made) search.not_made.push_back(mistake);
        if (state[i] == State::over_budget) search.over_budget.push_back(mistake), search.budget_seconds = *budget_seconds;
        if (state[i] == State::ruled_out) search.tried.push_back(mistake), ++search.decided_on_first_rows;
        if (tried[i]) search.tried.push_back(*tried[i]);
    }
    auto at = [](const PortingMistake& m) {
        const auto& all = porting_mistakes();
        return std::find_if(all.begin(), all.end(), [&](const PortingMistake& p) { return p.key() == m.key(); }) - all.begin();
    };
    std::stable_sort(search.not_visible.begin(), search.not_visible.end(), [&](const auto& a, const auto& b) { return at(a) < at(b); });
    std::stable_sort(search.below_tolerance.begin(), search.below_tolerance.end(),
                     [&](const auto& a, const auto& b) { return at(a.mistake) < at(b.mistake); });
    std::stable_sort(search.named.begin(), search.named.end(),
                     [&](const auto& a, const auto& b) { return at(a.mistake) < at(b.mistake); });
    return search;
}

MistakeSearch search_porting_mistakes(const BlockCase<Mpfr50>& bc, const Trace<Mpfr50>& given,
                                      const Trace<Mpfr50>& reference, DType dtype, std::optional<double> rtol,
                                      std::optional<double> atol, const Trace<Mpfr50>* faithful) {
    const MistakeRun run_with{made_on(bc.config), [&bc](const PortingMistake& mistake, StageJudge& judge) {
                                  BlockCase<Mpfr50> changed = bc;
                                  make_layer_mistake(changed.config, mistake.key());
                                  return run_judged<Mpfr50>(judge, [&](Trace<Mpfr50>& trace) {
                                      block_case_forward(changed, &trace);
                                  });
                              }};
    return search_porting_mistakes(run_with, bc.config, bc.cached.size() + bc.input.rows, given, reference, dtype, rtol,
                                   atol, {}, faithful);
}

bool needs_absent_scaling(const PortingMistake& mistake, const BlockConfig<Mpfr50>& config) {
    using Type = RopeScalingType;
    const Type type = config.rope_scaling.type;
    const std::string& id = mistake.entry->id;
    if (id == "rope_scaling_not_applied") return type == Type::none;
    if (id.starts_with("yarn_attention_factor")) return type != Type::yarn && type != Type::longrope;
    if (id == "llama3_band_skipped") return type != Type::llama3;
    if (id.starts_with("dynamic_ntk")) return type != Type::dynamic;
    return false;
}

std::string porting_mistakes_table() {
    std::string table = "| id | the one thing it changes | what a case needs to show it |\n|---|---|---|\n";
    for (const MistakeEntry& m : mistake_catalogue())
        if (m.port) {
            const std::string id = m.parameter.empty() ? m.id : m.id + "/{" + m.parameter + "}";
            const std::string members =
                m.parameter.empty() ? "" : fmt::format(" ({}: {})", m.parameter, fmt::join(m.parameter_values, ", "));
            table += fmt::format("| `{}` | {}{} | {} |\n", id, m.changes.en, members, m.shown_by.en);
        }
    return table;
}

}  // namespace blockcheck
