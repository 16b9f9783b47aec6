// Which porting mistake explains an output that leaves the reference: the block is run with each
// porting mistake of data/mistakes.json made (exactly one thing changed; a family, one member at a
// time), stage by stage, and a mistake is named when the given output matches it within the
// dtype's tolerance.
#pragma once

#include "checker/block/block_case.hpp"
#include "checker/block/error_report.hpp"
#include "checker/exercise/mistake_catalogue.hpp"
#include "solutions/block/block_mistakes.hpp"

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace blockcheck {

// A porting mistake of the catalogue, or one member of a family (weight_other_order/q_proj).
struct PortingMistake {
    const MistakeEntry* entry = nullptr;
    std::string parameter;  // the family member; empty for a mistake that is no family

    std::string key() const { return parameter.empty() ? entry->id : entry->id + "/" + parameter; }
    Text changes() const { return parameter_text(*entry, entry->changes, parameter); }
    Text shown_by() const { return parameter_text(*entry, entry->shown_by, parameter); }
};

// Every porting mistake, families expanded, in the catalogue's order.
const std::vector<PortingMistake>& porting_mistakes();

// A mistake the given output matches: at the first stage where the output leaves the reference,
// and at the output, every element is within the tolerance of the block with the mistake made.
struct NamedMistake {
    PortingMistake mistake;
    std::string stage;          // the first stage where the given output leaves the reference
    double normwise_eps = 0;    // max|given - with mistake| / max|with mistake| there, in eps
};

// A mistake made here that stays within the tolerance of the reference at every stage given, yet
// moves the output: the dtype's rounding may hide it (a wider type would tell).
struct HiddenMistake {
    PortingMistake mistake;
    double displacement_eps = 0;  // max|with mistake - reference| / max|reference| at the output, in eps
    double from_given_eps = 0;    // max|given - with mistake| / max|with mistake| there, in eps
    bool suspect = false;         // the given output is nearer the block with it made than the reference
};

struct MistakeSearch {
    std::vector<NamedMistake> named;             // none, one, or every mistake that fits
    std::vector<PortingMistake> not_visible;     // made here, but the block computes the same at the run's precision
    std::vector<HiddenMistake> below_tolerance;  // made here, moving the output less than the tolerance
    double given_error_eps = 0;                  // the given output's norm-wise error against the reference, in eps
    std::vector<PortingMistake> tried;           // made on this block and judged
    std::vector<PortingMistake> not_made;        // what they change is not in this block (no rope_scaling, ...)
    std::vector<PortingMistake> over_budget;     // not tried: the search's time ran out first
    std::size_t decided_on_first_rows = 0;       // of `tried`, ruled out by their first rows alone
    double budget_seconds = 0;                   // the budget that ran out (over_budget not empty)
};

// Judges one run with a mistake made as its stages come: against the reference (is the mistake
// visible at a stage the given output carries?) and against the given output (at the first stage
// where that leaves the reference, and at the output). It says when it has seen enough.
class StageJudge {
public:
    StageJudge(const Trace<Mpfr50>& given, const Trace<Mpfr50>& reference, const BlockConfig<Mpfr50>& config,
               std::size_t keys, DType dtype, std::optional<double> rtol, std::optional<double> atol,
               std::optional<std::string> first_outside, const Trace<Mpfr50>* faithful = nullptr);

    bool wants(const std::string& stage) const;  // the given output carries it
    // Takes the run's value at `stage`; false once the verdict cannot change (the run may stop).
    bool judge(const std::string& stage, const Matrix<Mpfr50>& value);
    bool visible() const { return visible_; }
    bool fits() const { return fits_ && compared_output_; }
    double normwise_eps() const { return normwise_eps_; }
    double displacement() const { return displacement_; }  // the largest norm-wise move of a stage judged
    double output_displacement_eps() const { return output_displacement_eps_; }
    double output_from_given_eps() const { return output_from_given_eps_; }

private:
    StageErrors errors(const std::string& stage, const Matrix<Mpfr50>& given, const Matrix<Mpfr50>& reference) const;

    const Trace<Mpfr50>& given_;
    const Trace<Mpfr50>& reference_;
    const BlockConfig<Mpfr50>& config_;
    std::size_t keys_;
    DType dtype_;
    std::optional<double> rtol_, atol_;
    std::optional<std::string> first_;
    const Trace<Mpfr50>* faithful_;
    bool visible_ = false, fits_ = true, compared_output_ = false, past_first_ = false;
    double normwise_eps_ = 0, displacement_ = 0, output_displacement_eps_ = 0, output_from_given_eps_ = 0;
};

// How the search runs a block with a mistake made: `made` says whether the mistake's switch changes
// anything in this block's configuration; `run` runs it, handing each stage it records to the
// judge (and stopping when the judge has seen enough), false when the block refuses the input
// with the mistake made.
struct MistakeRun {
    std::function<bool(const PortingMistake& mistake)> made;
    std::function<bool(const PortingMistake& mistake, StageJudge& judge)> run;
    double resolution = 1e-40;  // a norm-wise move below this is none at the runs' precision (1e-40 at 50 digits)
    // The first rows of the block's output with the mistake made, computed alone (the block is
    // causal: those rows are the whole run's first rows, bit for bit, where RoPE does not depend on
    // the sequence length); none where that does not hold, or no such shortcut exists. A mistake
    // these rows already show visible and (with a departure to explain) not fitting is decided
    // without its whole run (output_rules_out).
    std::function<std::optional<Matrix<Mpfr50>>(const PortingMistake& mistake)> first_rows;
};

// Whether `first_rows`, the first rows of a run's output with a mistake made, prove what its whole
// run would: the output leaves the reference's tolerance there (visible), and, when the given
// output departs (`departure`), leaves the given output's tolerance against the run too, with
// that run's largest value bounded by what a fitting run could have (|v| <= max|given| / (1 -
// 2 rtol)). `output`: the given output against the reference (its tolerance, faithful limit).
bool output_rules_out(const Matrix<Mpfr50>& first_rows, const Matrix<Mpfr50>& given, const Matrix<Mpfr50>& reference,
                      const StageErrors& output, bool departure, bool explicit_tolerance);

// `made` for a block of configuration `config`: its porting-mistake switch makes the mistake.
template <class T>
std::function<bool(const PortingMistake&)> made_on(const BlockConfig<T>& config) {
    return [config](const PortingMistake& mistake) {
        BlockConfig<T> changed = config;
        return make_layer_mistake(changed, mistake.key());
    };
}

// The search over any block (a case, a checkpoint's layer): `run_with` runs it with a mistake
// made; `keys` is the number of positions each query can see at most. Mistakes are named only
// when `given` leaves the reference; the ones these stages cannot show at any precision, and the
// ones they show only below the tolerance (with how far each moves the output, and whether the
// given output is nearer it), are listed whatever the given output is. After `budget_seconds`
// (none: no limit) the mistakes not yet begun are listed as over_budget. `faithful`: the block
// run in the dtype (error_report.hpp), which every stage is also held to.
MistakeSearch search_porting_mistakes(const MistakeRun& run_with, const BlockConfig<Mpfr50>& config, std::size_t keys,
                                      const Trace<Mpfr50>& given, const Trace<Mpfr50>& reference, DType dtype,
                                      std::optional<double> rtol = {}, std::optional<double> atol = {},
                                      std::optional<double> budget_seconds = {}, const Trace<Mpfr50>* faithful = nullptr);

// The search on a block case; `given` as read by read_block_output, `reference` the case's
// 50-digit trace.
MistakeSearch search_porting_mistakes(const BlockCase<Mpfr50>& bc, const Trace<Mpfr50>& given,
                                      const Trace<Mpfr50>& reference, DType dtype,
                                      std::optional<double> rtol = {}, std::optional<double> atol = {},
                                      const Trace<Mpfr50>* faithful = nullptr);

// Whether `mistake` changes only a RoPE scaling `config` has none of (of its type): the
// RoPE-scaling mistakes without rope_scaling, YaRN's attention factor without YaRN or LongRoPE,
// Llama 3's band without llama3, dynamic NTK's without dynamic. What it needs is not there.
bool needs_absent_scaling(const PortingMistake& mistake, const BlockConfig<Mpfr50>& config);

// Thrown by a judged run's trace to stop the block once the judge has seen enough.
struct JudgedEnough {};

// Runs `forward(trace)` (the block with a mistake made, recording into `trace`), handing each stage
// the judge wants to it at 50 digits as the block records it, and stopping the block when the judge
// has seen enough; false when the block refuses the input with the mistake made (a tenth of a zero
// epsilon, ...).
template <class T, class Forward>
bool run_judged(StageJudge& judge, Forward forward) {
    Trace<T> trace;
    trace.on_add = [&trace, &judge](const std::string& stage) {
        if (judge.wants(stage) && !judge.judge(stage, convert<Mpfr50>(trace.at(stage)))) throw JudgedEnough{};
    };
    try {
        forward(trace);
    } catch (const JudgedEnough&) {
    } catch (const std::domain_error&) {
        return false;
    } catch (const std::invalid_argument&) {
        return false;
    }
    return true;
}

// The search's findings in words (compare's text) and as JSON (compare --json): named_mistakes,
// suspects, mistakes_below_tolerance, mistakes_not_visible, mistakes_tried(_ids), _not_made,
// _over_budget. `within`: the given output is within its tolerance.
void print_mistake_search(const MistakeSearch& search, const BlockConfig<Mpfr50>& config, bool within, DType dtype,
                          Lang lang);
nlohmann::ordered_json mistake_search_json(const MistakeSearch& search, const BlockConfig<Mpfr50>& config);

// The table docs/check-your-implementation.md lists (a test keeps the two alike): every porting
// mistake, the one thing it changes, and what a case needs for it to show.
std::string porting_mistakes_table();

}  // namespace blockcheck
