#include "checker/block/model_config.hpp"

#include "checker/common/json_fields.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

// A positive whole number named `key`, or nothing when absent and not required.
const Json* whole_field(const Json& config, const std::string& key, const std::string& source, bool required) {
    if (!config.contains(key) || config[key].is_null()) {
        if (required) throw InputFileError(source + ": config." + key + " is missing (the block needs it)");
        return nullptr;
    }
    const Json& value = config[key];
    if (!value.is_number_integer() || value.get<long long>() <= 0)
        throw InputFileError(source + ": config." + key + ": expected a positive whole number, found " + value.dump());
    return &value;
}

// A field that changes the block to something it does not compute, refused by name unless it
// holds the one value the LLaMA block has.
void refuse_unless(const Json& config, const std::string& key, const Json& allowed, const std::string& source,
                   const std::string& meaning) {
    if (!config.contains(key) || config[key].is_null() || config[key] == allowed) return;
    throw InputFileError(fmt::format("{}: config.{} is {}: {}; the LLaMA block this checks has {} only", source, key,
                                     config[key].dump(), meaning, allowed.dump()));
}

}  // namespace

std::size_t hf_layer_count(const Json& config) {
    return config.contains("num_hidden_layers") && config["num_hidden_layers"].is_number_unsigned()
               ? config["num_hidden_layers"].get<std::size_t>()
               : 0;
}

Json block_config_json_of_hf(const Json& config, const std::string& source) {
    if (!config.is_object()) throw InputFileError(source + ": expected a JSON object (a Hugging Face config.json)");
    refuse_unless(config, "attention_bias", false, source, "q/k/v/o projections with biases");
    refuse_unless(config, "mlp_bias", false, source, "gate/up/down projections with biases");
    refuse_unless(config, "hidden_act", "silu", source, "another activation in the gated FFN");
    refuse_unless(config, "partial_rotary_factor", 1, source, "RoPE on part of each head");
    refuse_unless(config, "use_qk_norm", false, source, "RMSNorm on queries and keys");
    if (config.contains("rope_parameters"))
        throw InputFileError(source + ": config.rope_parameters (transformers 5) is not read yet; write rope_theta and "
                                      "rope_scaling as transformers 4 does");
    const Json& hidden = *whole_field(config, "hidden_size", source, true);
    const Json& heads = *whole_field(config, "num_attention_heads", source, true);
    const Json* kv_heads = whole_field(config, "num_key_value_heads", source, false);
    const Json* head_dim = whole_field(config, "head_dim", source, false);
    if (!head_dim && hidden.get<std::size_t>() % heads.get<std::size_t>() != 0)
        throw InputFileError(fmt::format("{}: config.hidden_size {} is not a multiple of num_attention_heads {} and "
                                         "there is no head_dim",
                                         source, hidden.dump(), heads.dump()));
    Json block = {{"hidden_size", hidden},
                  {"query_heads", heads},
                  {"kv_heads", kv_heads ? *kv_heads : heads},
                  {"head_dim", head_dim ? *head_dim : Json(hidden.get<std::size_t>() / heads.get<std::size_t>())},
                  {"ffn_hidden_size", *whole_field(config, "intermediate_size", source, true)},
                  {"rms_norm_eps", required_field(config, "rms_norm_eps", source + ": config")},
                  {"rope_theta", config.contains("rope_theta") ? config["rope_theta"] : Json(10000)},
                  {"rope_layout", "half"}};
    if (config.contains("max_position_embeddings")) block["max_position_embeddings"] = config["max_position_embeddings"];
    if (config.contains("rope_scaling") && !config["rope_scaling"].is_null()) block["rope_scaling"] = config["rope_scaling"];
    return block;
}

}  // namespace blockcheck
