// insight.json and insight.csv (docs/insight-format.md), and the terminal's top findings.
#pragma once

#include "checker/insight/insight.hpp"

#include <nlohmann/json.hpp>

namespace blockcheck {

inline constexpr const char* insight_format = "blockcheck-insight/1";

nlohmann::ordered_json insight_json(const Insight& insight);

// One row per exercise part and outcome, then one per shared group; students joined by "; ",
// each through printable_id; cells by csv_cell; CRLF line ends.
std::string insight_csv(const Insight& insight);

// The findings an instructor reads first, from an insight.json: the most common mistakes
// ("swiglu_ffn_2d.silu: 31% sigmoid_for_silu"), the parts most wrong answers of which no known
// mistake explains, the parts flagged for discrimination, and how many shared groups there are.
// At most `limit` lines per kind. Throws InputFileError for a file that is not one.
std::string insight_findings(const nlohmann::json& insight, Lang lang, std::size_t limit = 8);

}  // namespace blockcheck
