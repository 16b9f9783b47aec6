// The mistake catalogue (data/mistakes.json, compiled in): one entry per classic slip, with what
// it changes and the message that names it, in English and Chinese. The diagnosis, the exercise
// definitions' "mistakes" lists and docs/mistakes.md all read it; no mistake is described twice.
#pragma once

#include "checker/common/i18n.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace blockcheck {

struct MistakeEntry {
    std::string id;         // "integer_exponent"
    std::string mechanism;  // "rope", "kv_cache", ... or "generic"
    std::string made_by;    // "reference" or "block" (a switch there), "inputs", "expected"
    Text changes;           // the one thing the mistake changes
    Text message;           // names the slip, never the expected value; may hold {factor} or {pi}
    bool port = false;      // a porting mistake of the block: `compare` tries it (block_mistakes.hpp)
    Text shown_by;          // port: what a case needs for the mistake to show
    // Another entry this one is the same slip as where both are made (the porting name of a
    // student's slip): when the two give the same answers, only that one is named.
    std::string same_slip_as;
    // A family (port entries only): one switch, one member a value, named by the key "id/value";
    // "{name}" in changes, message and shown_by is filled with the value (parameter_text).
    std::string parameter;                        // "weight"; empty: not a family
    std::vector<std::string> parameter_values;    // "q_proj", "k_proj", ...
};

// `text` with the entry's "{parameter}" slot filled with `value` (a family member's words).
Text parameter_text(const MistakeEntry& entry, const Text& text, const std::string& value);

// Every entry, in the file's order; the file is checked when first read (a malformed entry is
// a std::logic_error naming data/mistakes.json and the entry).
const std::vector<MistakeEntry>& mistake_catalogue();

// The entry of `id`, or nullptr.
const MistakeEntry* find_mistake(std::string_view id);

// An exercise's declared id checked against the catalogue: an InputFileError naming `where`
// and, when one is close, the id most likely meant.
void require_known_mistake(const std::string& id, const std::string& where);

// The mistakes an exercise tries: every entry made by a switch (made_by reference or block), in
// the catalogue's order, less `excluded`. Whether one applies is the reference's to say: it
// consults the switch where it computes that mechanism (solutions/exercise.hpp).
template <class Excluded>
std::vector<std::string> mechanism_mistakes(const Excluded& excluded) {
    std::vector<std::string> ids;
    for (const MistakeEntry& m : mistake_catalogue())
        if ((m.made_by == "reference" || m.made_by == "block") && !excluded.count(m.id)) ids.push_back(m.id);
    return ids;
}

// docs/mistakes.md: every mistake with its mechanism and the one thing it changes.
std::string mistakes_doc();

}  // namespace blockcheck
