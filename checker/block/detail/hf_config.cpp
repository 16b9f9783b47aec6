#include "checker/block/hf_config.hpp"

#include "checker/common/json_fields.hpp"
#include "solutions/block/double_double.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

// Hugging Face reads its fields with .get(): a null is an absent field.
bool hf_given(const Json& object, const char* key) { return object.contains(key) && !object[key].is_null(); }

// The scaling object and the key it came under: rope_parameters (transformers 5, rope_theta
// inside) or rope_scaling (transformers 4); null when the config has neither.
struct HfScaling {
    std::string key = "rope_scaling";
    Json object;
};

HfScaling hf_scaling(const Json& json, const std::string& where) {
    const bool parameters = hf_given(json, "rope_parameters"), scaling = hf_given(json, "rope_scaling");
    if (parameters && scaling)
        throw InputFileError(where + ".rope_parameters: given beside rope_scaling; transformers 5 reads the first, "
                                     "transformers 4 the second: keep the one your code reads");
    HfScaling s;
    if (parameters) s = {"rope_parameters", json["rope_parameters"]};
    else if (scaling) s.object = json["rope_scaling"];
    if (!s.object.is_null() && !s.object.is_object())
        throw InputFileError(where + "." + s.key + ": expected an object or null, found " + json_shown(s.object));
    return s;
}

// The scaling object as read_rope_scaling reads it: null fields dropped, rope_parameters' own
// fields (rope_theta, partial_rotary_factor) taken out, Phi-3's old type "su" read as "longrope"
// and its top-level original_max_position_embeddings moved in, as transformers does.
Json hf_scaling_for_reader(const HfScaling& s, const Json& json, std::vector<Text>& notes) {
    Json scaling = Json::object();
    for (const auto& [key, value] : s.object.items())
        if (!value.is_null() && key != "rope_theta" && key != "partial_rotary_factor") scaling[key] = value;
    for (const char* type : {"type", "rope_type"})
        if (scaling.contains(type) && scaling[type] == "su") {
            scaling[type] = "longrope";
            notes.push_back({fmt::format("{}.{} \"su\" is read as \"longrope\", as transformers does", s.key, type),
                             fmt::format("{}.{} 的 \"su\" 按 \"longrope\" 读取（与 transformers 相同）", s.key, type)});
        }
    const Json type = scaling.value("rope_type", scaling.value("type", Json()));
    if (type == "longrope" && hf_given(json, "original_max_position_embeddings") &&
        !scaling.contains("original_max_position_embeddings")) {
        scaling["original_max_position_embeddings"] = json["original_max_position_embeddings"];
        notes.push_back({"the top-level original_max_position_embeddings (Phi-3's spelling) is LongRoPE's original context",
                         "顶层的 original_max_position_embeddings（Phi-3 的写法）作为 LongRoPE 的原始上下文长度"});
    }
    return scaling;
}

// head_dim, or hidden_size / num_attention_heads when the config gives none.
std::size_t hf_head_dim(const Json& json, const std::string& where) {
    const long long limit = static_cast<long long>(max_case_dimension);
    if (hf_given(json, "head_dim")) return static_cast<std::size_t>(whole_number(json["head_dim"], where + ".head_dim", 1, limit));
    if (!hf_given(json, "hidden_size") || !hf_given(json, "num_attention_heads"))
        throw InputFileError(where + ": needs head_dim, or hidden_size and num_attention_heads");
    const long long hidden = whole_number(json["hidden_size"], where + ".hidden_size", 1, limit * limit);
    const long long heads = whole_number(json["num_attention_heads"], where + ".num_attention_heads", 1, limit);
    if (hidden % heads != 0)
        throw InputFileError(fmt::format("{}.hidden_size: {} is not a multiple of num_attention_heads ({}); give head_dim",
                                         where, hidden, heads));
    if (hidden / heads > limit)
        throw InputFileError(fmt::format("{}.hidden_size: a head width of {} is beyond the limit of {}", where,
                                         hidden / heads, limit));
    return static_cast<std::size_t>(hidden / heads);
}

// int(head_dim * partial_rotary_factor), in double as transformers computes it; even and >= 2.
std::size_t hf_rotary_dim(const Json* factor, std::size_t head_dim, const std::string& at, std::vector<Text>& notes) {
    if (!factor) {
        if (head_dim % 2 != 0)
            throw InputFileError(fmt::format("{}: head_dim {} is odd; RoPE turns coordinate pairs", at, head_dim));
        return head_dim;
    }
    const double f = json_number<double>(*factor, at + ".partial_rotary_factor");
    if (!(f > 0 && f <= 1)) throw InputFileError(at + ".partial_rotary_factor: must be in (0, 1]");
    const auto dim = static_cast<std::size_t>(static_cast<double>(head_dim) * f);
    if (dim < 2 || dim % 2 != 0)
        throw InputFileError(fmt::format("{}.partial_rotary_factor: head_dim {} x {} gives {} rotated coordinates; RoPE "
                                         "turns pairs, so it must be even and at least 2",
                                         at, head_dim, decimal_text(*factor, at), dim));
    if (dim != head_dim)
        notes.push_back({fmt::format("RoPE turns the first {} of each head's {} coordinates (partial_rotary_factor {}); "
                                     "the frequencies below are theirs",
                                     dim, head_dim, decimal_text(*factor, at)),
                         fmt::format("RoPE 只旋转每个头 {1} 个坐标中的前 {0} 个（partial_rotary_factor {2}）；下面的频率即这些坐标的频率",
                                     dim, head_dim, decimal_text(*factor, at))});
    return dim;
}

// The rotary settings, and the scaling object in the form a block case's config carries it (null
// for none).
template <class T>
std::pair<RopeConfig<T>, Json> rope_parts(const Json& json, const std::string& source) {
    if (!json.is_object()) throw InputFileError(source + ": expected a JSON object (a Hugging Face config.json)");
    const std::string where = source + ": config";
    RopeConfig<T> c;
    const HfScaling s = hf_scaling(json, where);
    const bool in_parameters = s.key == "rope_parameters";
    const Json& theta_owner = in_parameters && hf_given(s.object, "rope_theta") ? s.object : json;
    const std::string theta_at = where + (&theta_owner == &json ? "" : "." + s.key) + ".rope_theta";
    if (hf_given(theta_owner, "rope_theta")) {
        c.theta = json_number<T>(theta_owner["rope_theta"], theta_at);
        if (c.theta <= 1) throw InputFileError(theta_at + ": must be greater than 1");
    } else {
        c.notes.push_back({"rope_theta is not given: 10000, LlamaConfig's default", "未给出 rope_theta：取 LlamaConfig 的默认值 10000"});
    }
    c.head_dim = hf_head_dim(json, where);
    const bool factor_inside = in_parameters && hf_given(s.object, "partial_rotary_factor");
    const Json* factor = factor_inside ? &s.object["partial_rotary_factor"]
                         : hf_given(json, "partial_rotary_factor") ? &json["partial_rotary_factor"]
                                                                    : nullptr;
    c.rotary_dim = hf_rotary_dim(factor, c.head_dim, factor_inside ? where + "." + s.key : where, c.notes);
    if (hf_given(json, "max_position_embeddings"))
        c.max_position_embeddings = static_cast<std::size_t>(
            whole_number(json["max_position_embeddings"], where + ".max_position_embeddings", 1, max_case_position));
    Json scaling;
    if (!s.object.is_null()) {
        Json config = json;  // a config.json is small; the copy carries the reader's form of the scaling
        config[s.key] = scaling = hf_scaling_for_reader(s, json, c.notes);
        if (config.contains("max_position_embeddings") && config["max_position_embeddings"].is_null())
            config.erase("max_position_embeddings");
        c.scaling = read_rope_scaling<T>(config, c.rotary_dim, where, s.key);
    }
    return {c, scaling};
}

// The decimal text of rope_theta where the config gives it (transformers 5 inside
// rope_parameters), "10000" when it gives none.
std::string theta_text(const Json& json, const std::string& where) {
    if (hf_given(json, "rope_parameters") && hf_given(json["rope_parameters"], "rope_theta"))
        return decimal_text(json["rope_parameters"]["rope_theta"], where + ".rope_parameters.rope_theta");
    return hf_given(json, "rope_theta") ? decimal_text(json["rope_theta"], where + ".rope_theta") : "10000";
}

// false unless the config says true; anything but a boolean is refused.
bool hf_flag(const Json& json, const char* key, const std::string& where) {
    if (!hf_given(json, key)) return false;
    if (!json[key].is_boolean()) throw InputFileError(where + "." + key + ": expected true or false, found " + json_shown(json[key]));
    return json[key].get<bool>();
}

// The fields that would make another block than this one, refused by name (the family's own, its
// biases and activation, by read_family_fields).
void refuse_other_blocks(const Json& json, const std::string& where) {
    if (hf_given(json, "quantization_config"))
        throw InputFileError(where + ".quantization_config: quantized weights are not read; use the float checkpoint");
}

std::size_t hf_count(const Json& json, const char* key, const std::string& where, long long limit) {
    return static_cast<std::size_t>(whole_number(required_field(json, key, where), where + "." + key, 1, limit));
}

// A block case's "config" for the fields read, numbers in their own decimal text.
Json case_config_of(const Json& json, const RopeConfig<Mpfr50>& rope, const Json& scaling, const std::string& where,
                    std::vector<Text>& notes) {
    const long long limit = static_cast<long long>(max_case_dimension);
    Json c = Json::object();
    c["hidden_size"] = hf_count(json, "hidden_size", where, limit);
    c["query_heads"] = hf_count(json, "num_attention_heads", where, limit);
    c["kv_heads"] = hf_given(json, "num_key_value_heads") ? hf_count(json, "num_key_value_heads", where, limit)
                                                           : c["query_heads"].get<std::size_t>();
    if (c["query_heads"].get<std::size_t>() % c["kv_heads"].get<std::size_t>() != 0)
        throw InputFileError(fmt::format("{}.num_key_value_heads: {} does not divide num_attention_heads ({})", where,
                                         c["kv_heads"].get<std::size_t>(), c["query_heads"].get<std::size_t>()));
    c["head_dim"] = rope.head_dim;
    c["ffn_hidden_size"] = hf_count(json, "intermediate_size", where, limit);
    if (hf_given(json, "rms_norm_eps")) c["rms_norm_eps"] = decimal_text(json["rms_norm_eps"], where + ".rms_norm_eps");
    else {
        c["rms_norm_eps"] = "0.000001";
        notes.push_back({"rms_norm_eps is not given: 1e-6, LlamaConfig's default", "未给出 rms_norm_eps：取 LlamaConfig 的默认值 1e-6"});
    }
    c["rope_theta"] = theta_text(json, where);
    c["rope_layout"] = "half";
    if (!scaling.is_null()) c["rope_scaling"] = scaling;
    if (rope.max_position_embeddings) c["max_position_embeddings"] = rope.max_position_embeddings;
    else {
        c["max_position_embeddings"] = 2048;
        notes.push_back({"max_position_embeddings is not given: 2048, LlamaConfig's default",
                         "未给出 max_position_embeddings：取 LlamaConfig 的默认值 2048"});
    }
    return c;
}

// The rope_scaling of a Hugging Face config; `ntk` has no HF type and becomes rope_theta.
Json hf_rope_scaling(const Json& scaling) {
    if (!scaling.is_object()) return nullptr;
    Json s = scaling;
    const std::string type = s.contains("rope_type") ? s["rope_type"].get<std::string>() : s.value("type", "none");
    if (type == "none" || type == "default" || type == "ntk") return nullptr;
    s.erase("type");
    s["rope_type"] = type;
    for (auto& [key, value] : s.items()) {
        if (key == "rope_type") continue;
        if (value.is_string()) value = std::stod(value.get<std::string>());
        if (value.is_array())
            for (Json& x : value)
                if (x.is_string()) x = std::stod(x.get<std::string>());
    }
    return s;
}

}  // namespace

template <class T>
RopeConfig<T> read_hf_rope(const Json& json, const std::string& source) {
    return rope_parts<T>(json, source).first;
}

template <class T>
HfConfig<T> read_hf_config(const Json& config, const std::string& source) {
    const std::string where = source + ": config";
    std::vector<Text> family_notes;
    const Json json = with_family_defaults(config, where, family_notes);
    const auto [rope, scaling] = rope_parts<Mpfr50>(json, source);
    refuse_other_blocks(json, where);
    const bool partial = rope.rotary_dim != rope.head_dim;
    if (partial && json.value("model_type", Json()) != "phi3")
        throw InputFileError(fmt::format("{}.partial_rotary_factor: RoPE turns {} of each head's {} coordinates; the "
                                         "block turns them all but in a phi3 layer",
                                         where, rope.rotary_dim, rope.head_dim));
    HfConfig<T> h;
    h.notes = family_notes;
    h.notes.insert(h.notes.end(), rope.notes.begin(), rope.notes.end());
    h.case_config = case_config_of(json, rope, scaling, where, h.notes);
    Json whole_heads = h.case_config;  // a partial rotary's scaling has a pair list of its rotated width
    if (partial) whole_heads.erase("rope_scaling");
    h.block = read_block_config<T>(whole_heads, where);  // the block case's own reader: one meaning for each field
    if (partial) {
        h.block.rotary_dim = rope.rotary_dim;
        h.block.rope_scaling = read_hf_rope<T>(json, source).scaling;
    }
    if (config.value("model_type", Json()) == "gemma3" && config.contains("text_config"))
        h.layer_prefixes = {"language_model.model.layers.", "model.language_model.layers."};
    h.max_position_embeddings = h.case_config["max_position_embeddings"].template get<std::size_t>();
    const long long large = 1LL << 40;
    if (hf_given(json, "num_hidden_layers"))
        h.num_hidden_layers = static_cast<std::size_t>(whole_number(json["num_hidden_layers"], where + ".num_hidden_layers", 1, large));
    if (hf_given(json, "vocab_size"))
        h.vocab_size = static_cast<std::size_t>(whole_number(json["vocab_size"], where + ".vocab_size", 1, large));
    h.tie_word_embeddings = hf_flag(json, "tie_word_embeddings", where);
    if (hf_given(json, "sliding_window") && json.value("model_type", Json("llama")) == "llama") {
        h.sliding_window = static_cast<std::size_t>(whole_number(json["sliding_window"], where + ".sliding_window", 1, large));
        h.notes.push_back({fmt::format("sliding_window {0}: LlamaModel does not read it; the layer attends to every "
                                       "earlier key, which is the same for sequences of at most {0} positions", h.sliding_window),
                           fmt::format("sliding_window {0}：LlamaModel 不读取它；该层关注之前的全部键，仅当序列不超过 {0} 个位置时二者相同",
                                       h.sliding_window)});
    }
    for (const char* key : {"torch_dtype", "dtype"})
        if (hf_given(json, key) && json[key].is_string()) h.torch_dtype = json[key].get<std::string>();
    read_family_fields(json, where, h);
    return h;
}

Json hf_config_json(const BlockConfig<double>& c, const Json& case_config, long positions) {
    const bool ntk = c.rope_scaling.type == RopeScalingType::ntk;
    const double theta = ntk ? ntk_base(c.rope_theta, c.rope_scaling.factor, c.head_dim) : c.rope_theta;
    return {{"architectures", {"LlamaForCausalLM"}},
            {"model_type", "llama"},
            {"hidden_size", c.hidden_size},
            {"intermediate_size", c.ffn_hidden_size},
            {"num_attention_heads", c.query_heads},
            {"num_key_value_heads", c.kv_heads},
            {"head_dim", c.head_dim},
            {"num_hidden_layers", 1},
            {"hidden_act", "silu"},
            {"rms_norm_eps", c.rms_norm_eps},
            {"rope_theta", theta},
            {"rope_scaling", hf_rope_scaling(case_config.value("rope_scaling", Json()))},
            {"max_position_embeddings", case_config.contains("max_position_embeddings")
                                            ? case_config["max_position_embeddings"]
                                            : Json(std::max<long>(4096, positions))},
            {"attention_bias", false},
            {"mlp_bias", false},
            {"vocab_size", 32000},
            {"torch_dtype", "float64"}};
}

template RopeConfig<Mpfr50> read_hf_rope<Mpfr50>(const Json&, const std::string&);
template HfConfig<float> read_hf_config<float>(const Json&, const std::string&);
template HfConfig<double> read_hf_config<double>(const Json&, const std::string&);
template HfConfig<Mpfr50> read_hf_config<Mpfr50>(const Json&, const std::string&);
template HfConfig<DoubleDouble> read_hf_config<DoubleDouble>(const Json&, const std::string&);
template HfConfig<Mpfr100> read_hf_config<Mpfr100>(const Json&, const std::string&);

}  // namespace blockcheck
