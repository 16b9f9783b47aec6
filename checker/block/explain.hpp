// `blockcheck explain --html`: one self-contained page that draws the chapter's mechanisms in four
// modes (basics, advanced, practice, optimisation). Every number on the page is computed here by
// the block (at double, enough for drawing) and embedded as JSON; the page's script only draws.
#pragma once

#include "checker/common/i18n.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace blockcheck {

// The page's data: basics (stamps, rms, activations), advanced (dials, distance, shift),
// practice (the block case's stages, attention weights, the student's check results when given),
// optimisation (kv_cache, scaling, budget). `check_results` is `check --json`'s object or null.
nlohmann::ordered_json explain_data(const std::filesystem::path& root, Lang lang,
                                    const nlohmann::ordered_json& check_results = nullptr);

// JSON made safe inside <script type="application/json">: '<', '>' and '&' as \u escapes.
std::string script_safe_json(const nlohmann::ordered_json& json);

// The whole page: data/explain/explain.css and explain.js inlined, the data as a JSON blob.
std::string explain_html(const std::filesystem::path& root, const nlohmann::ordered_json& data, Lang lang);

}  // namespace blockcheck
