// The claims `verify` checks (data/claims/*.json): what a source states, the value it prints,
// the worked step that computes it and the rule comparing the two, with the verdict expected.
#pragma once

#include "checker/common/i18n.hpp"
#include "solutions/worked/worked.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace blockcheck {

enum class ClaimVerdict {
    holds,           // the statement agrees with the computation
    source_erratum,  // the source's statement is wrong or loose; `computed` holds the counter-example
    fails,           // a property of the block does not hold, or the check could not be computed
};

std::string_view claim_verdict_name(ClaimVerdict verdict);

enum class Rule {
    rounds_to,  // the computed numbers, rounded to the printed decimals, equal the printed ones
    exact,      // equal exactly: whole numbers, true/false, undefined
    approx,     // |computed - value| <= tolerance x max(|value|, 1), element by element
    within,     // every computed number lies in [min, max] (either bound may be absent)
    outside,    // at least one computed number lies outside [min, max]
};

struct Claim {
    std::string id;
    std::string file;         // the claims file, for messages
    std::size_t index = 0;    // position in the file's "claims" array
    Text document;            // "chapter 25", "companion article", "the block"
    bool about_block = false; // a property of the block: a mismatch is `fails`, not `source_erratum`
    std::string section;
    Text statement;
    std::string printed;      // what the source prints, as it prints it
    std::string step;         // the worked step computing it: "25.2/row/rms"
    Rule rule = Rule::rounds_to;
    std::string value;        // the value text the rule compares with ("printed" when absent)
    std::string tolerance, min, max;
    ClaimVerdict expected = ClaimVerdict::holds;

    // "claims[3]" in `file`, for messages.
    std::string where() const;
};

// A statement of a source that no computation here can decide, listed so that it is not
// silently dropped.
struct UncheckedClaim {
    Text document;
    std::string section;
    Text statement;
    Text reason;
};

struct ClaimSet {
    std::vector<Claim> claims;
    std::vector<UncheckedClaim> unchecked;
};

// Reads one claims file, or every *.json of a directory in name order. A missing field, an
// unknown field or rule, a duplicate id or a value that does not parse is an InputFileError
// naming the file and the field.
ClaimSet read_claims(const std::filesystem::path& file_or_directory);

// The same for JSON already parsed; `source` names it in messages. Appends to `into`.
void parse_claims(const nlohmann::ordered_json& json, const std::string& source, ClaimSet& into);

struct ClaimResult {
    ClaimVerdict verdict = ClaimVerdict::fails;
    std::string computed;  // the computed value as compared, or the error
};

// Applies the claim's rule to its step (computed at 50 digits). A value text that does not suit
// the rule is an InputFileError naming the claim.
ClaimResult evaluate_claim(const Claim& claim, const Step<Mpfr50>& step);

// The verdict of a claim whose step could not be computed.
ClaimResult failed_claim(const std::string& error);

}  // namespace blockcheck
