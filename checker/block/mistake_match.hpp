// Which porting mistake explains an output that leaves the reference: the block is run on the
// case with each porting mistake of data/mistakes.json made (exactly one thing changed, at 50
// digits), and a mistake is named when the given output matches it within the dtype's tolerance.
#pragma once

#include "checker/block/block_case.hpp"
#include "checker/block/error_report.hpp"
#include "checker/exercise/mistake_catalogue.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace blockcheck {

// A mistake the given output matches: at the first stage where the output leaves the reference,
// and at the output, every element is within the tolerance of the block with the mistake made.
struct NamedMistake {
    const MistakeEntry* mistake = nullptr;
    std::string stage;          // the first stage where the given output leaves the reference
    double normwise_eps = 0;    // max|given - with mistake| / max|with mistake| there, in eps
};

struct MistakeSearch {
    std::vector<NamedMistake> named;               // none, one, or every mistake that fits
    std::vector<const MistakeEntry*> not_visible;  // made on this case, within tolerance of the reference
    std::size_t tried = 0;                         // porting mistakes made on this case
};

// Every porting mistake tried on `bc`; `given` as read by read_block_output, `reference` the
// case's 50-digit trace. Mistakes are named only when `given` leaves the reference; the ones this
// case cannot show (at these stages and tolerances) are listed whatever the given output is.
MistakeSearch search_porting_mistakes(const BlockCase<Mpfr50>& bc, const Trace<Mpfr50>& given,
                                      const Trace<Mpfr50>& reference, DType dtype,
                                      std::optional<double> rtol = {}, std::optional<double> atol = {});

// The block's trace with one porting mistake made (nullopt when it cannot be made on this input).
using MistakeRun = std::function<std::optional<Trace<Mpfr50>>(const MistakeEntry&)>;

// The same search over any block (a checkpoint's layer): `run_with` runs it with a mistake made;
// `keys` is the number of positions each query can see at most.
MistakeSearch search_porting_mistakes(const MistakeRun& run_with, const BlockConfig<Mpfr50>& config, std::size_t keys,
                                      const Trace<Mpfr50>& given, const Trace<Mpfr50>& reference, DType dtype,
                                      std::optional<double> rtol = {}, std::optional<double> atol = {});

// The table docs/check-your-implementation.md lists (a test keeps the two alike): every porting
// mistake, the one thing it changes, and what a case needs for it to show.
std::string porting_mistakes_table();

}  // namespace blockcheck
