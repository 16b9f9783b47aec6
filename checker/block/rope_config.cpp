#include "checker/block/rope_config.hpp"

#include "checker/common/json_fields.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

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

}  // namespace

template <class T>
std::size_t RopeConfig<T>::original_context() const {
    return scaling.original_context ? scaling.original_context : max_position_embeddings;
}

template <class T>
std::size_t RopeConfig<T>::longest_context() const {
    using std::ceil;
    std::size_t longest = max_position_embeddings;
    if (scaling.type != RopeScalingType::none && original_context() > 0) {
        const T stretched = ceil(scaling.factor * T(static_cast<long>(original_context())));
        longest = std::max(longest, static_cast<std::size_t>(static_cast<long>(stretched)));
    }
    return longest;
}

template <class T>
std::vector<long> RopeConfig<T>::default_positions() const {
    const auto original = static_cast<long>(original_context()), longest = static_cast<long>(longest_context());
    std::vector<long> positions{0};
    for (long p : {original - 1, original, longest - 1})
        if (p > positions.back() && (p < longest || longest == 0)) positions.push_back(p);
    return positions;
}

template <class T>
RopeConfig<T> read_rope_config(const Json& json, const std::string& source) {
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
    if (!s.object.is_null()) {
        Json config = json;  // a config.json is small; the copy carries the reader's form of the scaling
        config[s.key] = hf_scaling_for_reader(s, json, c.notes);
        if (config.contains("max_position_embeddings") && config["max_position_embeddings"].is_null())
            config.erase("max_position_embeddings");
        c.scaling = read_rope_scaling<T>(config, c.rotary_dim, where, s.key);
    }
    return c;
}

template struct RopeConfig<Mpfr50>;
template RopeConfig<Mpfr50> read_rope_config<Mpfr50>(const Json&, const std::string&);

}  // namespace blockcheck
