#include "checker/verify/rerun_catalog.hpp"

#include "checker/block/block_case.hpp"
#include "checker/common/json_exact.hpp"

#include <map>
#include <stdexcept>

namespace blockcheck {

const std::vector<std::string>& worked_ids() {
    static const std::vector<std::string> ids = {
        "25.1", "25.2", "25.3", "table-25.2", "25.4", "figure-25.1",
        "gqa_long_context-stamp", "gqa_long_context-pi", "gqa_long_context-ntk", "gqa_long_context-gqa",
        "gqa_long_context-swiglu", "gqa_long_context-attention", "gqa_long_context-rope-demo",
        "properties",
    };
    return ids;
}

std::string resolve_worked_id(const std::string& name) {
    static const std::map<std::string, std::string> aliases = {
        {"table-25.1", "25.1"},
        {"rope_quarter_turn_table", "25.1"},
        {"rms_norm_vs_layer_norm", "25.2"},
        {"swiglu_ffn_2d", "25.3"},
        {"ffn_parameter_counts", "table-25.2"},
        {"config", "25.4"},
        {"figure", "figure-25.1"},
    };
    for (const std::string& id : worked_ids())
        if (id == name) return id;
    auto it = aliases.find(name);
    return it == aliases.end() ? std::string() : it->second;
}

template <class T>
ConfigFacts<T> read_config_facts(const std::filesystem::path& file) {
    const nlohmann::ordered_json json = read_json_exact(file);
    ConfigFacts<T> facts;
    facts.config = read_block_config<T>(json, file.string());
    facts.bias = json.contains("bias") && json["bias"].is_boolean() && json["bias"].get<bool>();
    if (!json.contains("max_sequence_slots"))
        throw InputFileError(file.string() + ".max_sequence_slots: missing field (section 25.4 prints it)");
    facts.max_sequence_slots = json["max_sequence_slots"].get<Count>();
    return facts;
}

template <class T>
Worked<T> compute_worked(const std::string& id, const std::filesystem::path& root) {
    const std::filesystem::path config_file = root / "data" / "part-v" / "modern-config.json";
    auto modern = [&config_file] { return read_config_facts<T>(config_file).config; };
    if (id == "25.1") return rope_quarter_turn_example<T>(modern());
    if (id == "25.2") return rms_norm_example<T>();
    if (id == "25.3") return swiglu_example<T>();
    if (id == "table-25.2") return ffn_count_example<T>();
    if (id == "25.4") return modern_config_example<T>(read_config_facts<T>(config_file));
    if (id == "figure-25.1") {
        const std::filesystem::path case_file = root / "data" / "cases" / "modern-small.json";
        const BlockCase<T> bc = read_block_case<T>(read_json_exact(case_file), case_file.string());
        return block_trace_example<T>(bc.config, bc.weights, bc.input, bc.start_position);
    }
    if (id == "gqa_long_context-stamp") return stamp_example<T>();
    if (id == "gqa_long_context-pi") return position_interpolation_example<T>(modern());
    if (id == "gqa_long_context-ntk") return ntk_example<T>(modern());
    if (id == "gqa_long_context-gqa") return gqa_example<T>(modern());
    if (id == "gqa_long_context-swiglu") return silu_gate_example<T>();
    if (id == "gqa_long_context-attention") return position_blind_attention_example<T>();
    if (id == "gqa_long_context-rope-demo") return rope_demo_example<T>();
    if (id == "properties") return block_properties_example<T>(modern());
    throw std::out_of_range("no worked example '" + id + "'");
}

template ConfigFacts<Mpfr50> read_config_facts<Mpfr50>(const std::filesystem::path&);
template ConfigFacts<Mpfr100> read_config_facts<Mpfr100>(const std::filesystem::path&);
template Worked<Mpfr50> compute_worked<Mpfr50>(const std::string&, const std::filesystem::path&);
template Worked<Mpfr100> compute_worked<Mpfr100>(const std::string&, const std::filesystem::path&);

}  // namespace blockcheck
