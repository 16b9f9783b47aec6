// The model families of config.json's model_type: each family's own fields and defaults (those of
// its transformers config class) read into the switches of the one block (docs/checkpoints.md).
#include "checker/block/hf_config.hpp"

#include "checker/common/json_fields.hpp"
#include "solutions/block/double_double.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

bool family_has(const Json& object, const char* key) { return object.contains(key) && !object[key].is_null(); }

// A family: its model_type, its transformers config class and the defaults that class gives the
// fields the block reads where they differ from LlamaConfig's.
struct Family {
    const char* model_type;
    const char* config_class;
    std::vector<std::pair<const char*, const char*>> defaults;  // JSON text, read exactly as config.json is
};

const std::vector<Family>& families() {
    static const std::vector<Family> all = {
        {"llama", "LlamaConfig", {}},
        {"mistral", "MistralConfig", {{"sliding_window", "4096"}}},
        {"qwen2", "Qwen2Config", {{"use_sliding_window", "false"}, {"sliding_window", "4096"}, {"max_window_layers", "28"}}},
        {"qwen3", "Qwen3Config",
         {{"head_dim", "128"}, {"use_sliding_window", "false"}, {"sliding_window", "4096"}, {"max_window_layers", "28"}}},
        {"gemma2", "Gemma2Config",
         {{"head_dim", "256"}, {"hidden_activation", "\"gelu_pytorch_tanh\""}, {"query_pre_attn_scalar", "256"},
          {"attn_logit_softcapping", "50.0"}, {"sliding_window", "4096"}}},
        {"gemma3_text", "Gemma3TextConfig",
         {{"head_dim", "256"}, {"hidden_activation", "\"gelu_pytorch_tanh\""}, {"query_pre_attn_scalar", "256"},
          {"sliding_window", "4096"}, {"sliding_window_pattern", "6"}, {"rope_theta", "1000000.0"},
          {"rope_local_base_freq", "10000.0"}}},
        // Phi3Config always has original_max_position_embeddings, so LongRoPE reads it (not
        // max_position_embeddings) wherever config.json leaves it out
        {"phi3", "Phi3Config",
         {{"rms_norm_eps", "1e-05"}, {"max_position_embeddings", "4096"}, {"original_max_position_embeddings", "4096"}}},
        {"olmo2", "Olmo2Config", {{"rms_norm_eps", "1e-05"}}},
    };
    return all;
}

const Family& family_of(const Json& json, const std::string& where) {
    const Json type = family_has(json, "model_type") ? json["model_type"] : Json("llama");
    for (const Family& f : families())
        if (type == f.model_type) return f;
    std::string known;
    for (const Family& f : families()) known += (known.empty() ? "" : ", ") + std::string(f.model_type);
    throw InputFileError(where + ".model_type: " + json_shown(type) + ": not a family the block computes (" + known +
                         ", gemma3 with a text_config); no other model's layer is read as LLaMA's");
}

// false unless the config says true; anything but a boolean is refused.
bool family_flag(const Json& json, const char* key, const std::string& where) {
    if (!family_has(json, key)) return false;
    if (!json[key].is_boolean()) throw InputFileError(where + "." + key + ": expected true or false, found " + json_shown(json[key]));
    return json[key].get<bool>();
}

template <class T>
std::optional<T> positive_field(const Json& json, const char* key, const std::string& where) {
    if (!family_has(json, key)) return std::nullopt;
    const T x = json_number<T>(json[key], where + "." + key);
    if (!(x > 0)) throw InputFileError(where + "." + key + ": must be greater than 0");
    return x;
}

std::size_t whole_field(const Json& json, const char* key, const std::string& where, long long low) {
    return static_cast<std::size_t>(whole_number(json[key], where + "." + key, low, 1LL << 40));
}

// The activation of the gate: hidden_act (hidden_activation for Gemma, as its MLP reads it).
GateActivation activation_of(const Json& json, const std::string& model_type, const std::string& where) {
    const bool gemma = model_type.starts_with("gemma");
    const char* key = gemma ? "hidden_activation" : "hidden_act";
    if (!family_has(json, key)) return GateActivation::silu;
    const Json& a = json[key];
    if (a == "silu" || a == "swish") return GateActivation::silu;
    if (gemma && (a == "gelu_pytorch_tanh" || a == "gelu_new")) return GateActivation::gelu_tanh;
    if (gemma && a == "gelu") return GateActivation::gelu;
    throw InputFileError(where + "." + key + ": " + json_shown(a) + ": the block's gate is " +
                         (gemma ? "GELU (\"gelu_pytorch_tanh\", \"gelu_new\" or \"gelu\") or SiLU" : "SiLU (\"silu\")"));
}

// layer_types (a list of "sliding_attention" and "full_attention", one a layer), or null.
std::optional<std::vector<bool>> windowed_list(const Json& json, std::size_t layers, const std::string& where) {
    if (!family_has(json, "layer_types")) return std::nullopt;
    const Json& list = json["layer_types"];
    if (!list.is_array() || (layers > 0 && list.size() != layers))
        throw InputFileError(fmt::format("{}.layer_types: expected a list of {} layer types", where, layers));
    std::vector<bool> windowed;
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (list[i] != "sliding_attention" && list[i] != "full_attention")
            throw InputFileError(fmt::format("{}.layer_types[{}]: {}: expected \"sliding_attention\" or \"full_attention\"",
                                             where, i, json_shown(list[i])));
        windowed.push_back(list[i] == "sliding_attention");
    }
    return windowed;
}

// Which layers are windowed (local), as the family's modeling code decides it: layer_types when the
// config lists them; else Qwen's from max_window_layers on (with use_sliding_window), Gemma 2's even
// layers, Gemma 3's all but every sliding_window_pattern-th, every layer for Mistral and Phi-3.
template <class T>
void read_windows(const Json& json, const std::string& where, HfConfig<T>& hf) {
    const std::string& type = hf.model_type;
    const bool qwen = type == "qwen2" || type == "qwen3";
    if (qwen && !family_flag(json, "use_sliding_window", where)) return;  // sliding_window is then None
    if (!family_has(json, "sliding_window") || type == "llama") return;
    const std::size_t window = whole_field(json, "sliding_window", where, 1);
    const std::size_t layers = hf.num_hidden_layers;
    if (const auto list = windowed_list(json, layers, where)) {
        hf.windowed_layer = [list = *list](std::size_t i) { return i < list.size() && list[i]; };
    } else if (qwen) {
        const std::size_t from = family_has(json, "max_window_layers") ? whole_field(json, "max_window_layers", where, 0) : 0;
        hf.windowed_layer = [from](std::size_t i) { return i >= from; };
    } else if (type == "gemma2") {
        hf.windowed_layer = [](std::size_t i) { return i % 2 == 0; };
    } else if (type == "gemma3_text") {
        const std::size_t pattern = whole_field(json, "sliding_window_pattern", where, 1);
        hf.windowed_layer = [pattern](std::size_t i) { return (i + 1) % pattern != 0; };
    } else {
        hf.windowed_layer = [](std::size_t) { return true; };
    }
    hf.local_kind = {window, hf.block.rope_theta, hf.block.rope_scaling};
    if (type == "gemma3_text") {  // local layers: their own base, no scaling (Gemma3TextModel's rotary_emb_local)
        hf.local_kind.rope_theta = positive_field<T>(json, "rope_local_base_freq", where).value_or(T(10000));
        hf.local_kind.rope_scaling = RopeScaling<T>{};
    }
    bool some = false, all = true;
    for (std::size_t i = 0; i < std::max<std::size_t>(layers, 1); ++i) {
        some = some || hf.windowed_layer(i);
        all = all && hf.windowed_layer(i);
    }
    hf.two_kinds = layers == 0 ? type != "mistral" && type != "phi3" : some && !all;
}

void refuse_true(const Json& json, const char* key, const std::string& where, const char* why) {
    if (family_flag(json, key, where)) throw InputFileError(where + "." + key + ": true: " + why);
}

}  // namespace

Json with_family_defaults(const Json& config, const std::string& where, std::vector<Text>& notes) {
    Json json = config;
    if (config.is_object() && config.value("model_type", Json()) == "gemma3" && config.contains("text_config")) {
        if (!config["text_config"].is_object()) throw InputFileError(where + ".text_config: expected an object");
        json = config["text_config"];
        json["model_type"] = "gemma3_text";
        notes.push_back({"gemma3: the decoder layers are text_config's (gemma3_text); the vision tower is not read",
                         "gemma3：解码层取 text_config（gemma3_text）；不读取视觉部分"});
    }
    if (!json.is_object()) return json;
    const Family& family = family_of(json, where);
    for (const auto& [key, value] : family.defaults)
        if (!json.contains(key)) {
            json[key] = parse_json_exact(value, family.config_class);
            notes.push_back({fmt::format("{} is not given: {}, {}'s default", key, value, family.config_class),
                             fmt::format("未给出 {}：取 {} 的默认值 {}", key, family.config_class, value)});
        }
    return json;
}

template <class T>
void read_family_fields(const Json& json, const std::string& where, HfConfig<T>& hf) {
    hf.model_type = family_of(json, where).model_type;
    const std::string& type = hf.model_type;
    BlockConfig<T>& b = hf.block;
    const bool gemma = type == "gemma2" || type == "gemma3_text";
    b.gate_activation = activation_of(json, type, where);
    if (type == "llama" || type == "mistral") {
        for (const char* key : {"attention_bias", "mlp_bias"}) refuse_true(json, key, where, "the block has no bias terms");
    } else if (type == "qwen2") {
        b.qkv_bias = true;  // Qwen2Attention's q/k/v projections always have biases, o_proj none
    } else if (type == "qwen3" || type == "olmo2" || gemma) {
        refuse_true(json, "attention_bias", where, "biases on q, k, v and o: the block adds none on o_proj");
    }
    if (type == "qwen3" || type == "gemma3_text") b.qk_norm = QkNorm::per_head;
    if (type == "olmo2") b.qk_norm = QkNorm::whole, b.norm_sides = NormSides::output;
    if (gemma) {
        b.gain_plus_one = true;
        b.norm_sides = NormSides::both;
        b.query_pre_attn_scalar = positive_field<T>(json, "query_pre_attn_scalar", where);
        b.softcap = positive_field<T>(json, "attn_logit_softcapping", where);
        refuse_true(json, "use_bidirectional_attention", where, "every query sees every key: the block is causal");
        hf.notes.push_back({"Gemma scales the embeddings by sqrt(hidden_size) before layer 0: outside a layer, so not "
                            "computed here (--input is the layer's own input)",
                            "Gemma 在第 0 层之前把嵌入乘以 sqrt(hidden_size)：那在层之外，这里不计算（--input 即该层自己的输入）"});
    }
    if (type == "phi3") b.fused_qkv = hf.fused_gate_up = true;
    read_windows(json, where, hf);
}

template <class T>
BlockConfig<T> layer_block(const HfConfig<T>& hf, std::size_t layer) {
    BlockConfig<T> b = hf.block;
    if (!hf.windowed_layer) return b;
    const LayerKind<T> global{0, b.rope_theta, b.rope_scaling};
    const bool local = hf.windowed_layer(layer);
    const LayerKind<T>& own = local ? hf.local_kind : global;
    b.sliding_window = own.sliding_window;
    b.rope_theta = own.rope_theta;
    b.rope_scaling = own.rope_scaling;
    if (hf.two_kinds) b.other_kind = local ? global : hf.local_kind;
    return b;
}

template <class T>
std::vector<Text> layer_mechanisms(const HfConfig<T>& hf, std::size_t layer) {
    const BlockConfig<T> b = layer_block(hf, layer);
    std::vector<Text> m;
    auto say = [&m](std::string en, std::string zh) { m.push_back({std::move(en), std::move(zh)}); };
    if (b.qkv_bias) say("q/k/v projections add their biases", "q/k/v 投影加偏置");
    if (b.fused_qkv) say("q, k, v split from the fused qkv_proj (its rows: q, then k, then v)", "q、k、v 由融合的 qkv_proj 拆出（各行依次为 q、k、v）");
    if (hf.fused_gate_up) say("gate and up split from the fused gate_up_proj (gate rows first)", "gate 与 up 由融合的 gate_up_proj 拆出（gate 行在前）");
    if (b.qk_norm == QkNorm::per_head) say("RMSNorm on each head's q and k before RoPE (q_norm, k_norm)", "RoPE 之前对每个头的 q、k 做 RMSNorm（q_norm、k_norm）");
    if (b.qk_norm == QkNorm::whole) say("RMSNorm over the whole q and k projections before RoPE (q_norm, k_norm)", "RoPE 之前对整个 q、k 投影做 RMSNorm（q_norm、k_norm）");
    if (b.rotary_dim && b.rotary_dim != b.head_dim)
        say(fmt::format("RoPE turns the first {} of each head's {} coordinates", b.rotary_dim, b.head_dim),
            fmt::format("RoPE 只旋转每个头 {1} 个坐标中的前 {0} 个", b.rotary_dim, b.head_dim));
    if (b.gain_plus_one) say("RMSNorm multiplies by 1 + g (gains stored as g)", "RMSNorm 乘以 1 + g（增益存为 g）");
    if (b.norm_sides == NormSides::both) say("RMSNorm before and after each sublayer (four norms)", "每个子层前后各一个 RMSNorm（共四个）");
    if (b.norm_sides == NormSides::output) say("RMSNorm after each sublayer, before the residual add (none before)", "RMSNorm 在每个子层之后、残差相加之前（之前没有）");
    if (b.gate_activation == GateActivation::gelu_tanh) say("GeGLU: GELU's tanh form for SiLU", "GeGLU：用 GELU 的 tanh 形式代替 SiLU");
    if (b.gate_activation == GateActivation::gelu) say("GeGLU: exact GELU for SiLU", "GeGLU：用精确 GELU 代替 SiLU");
    if (b.query_pre_attn_scalar)
        say("scores scaled by query_pre_attn_scalar^-1/2 = " + to_decimal(*b.query_pre_attn_scalar, 10) + "^-1/2",
            "分数乘以 query_pre_attn_scalar^-1/2 = " + to_decimal(*b.query_pre_attn_scalar, 10) + "^-1/2");
    if (b.softcap)
        say("scores soft-capped: c tanh(s / c), c = " + to_decimal(*b.softcap, 10), "分数软上限：c tanh(s / c)，c = " + to_decimal(*b.softcap, 10));
    if (b.sliding_window)
        say(fmt::format("layer {}{}: sliding window {} (query i sees key j when i - j < {}), RoPE base {}", layer,
                        hf.two_kinds ? " is local" : "", b.sliding_window, b.sliding_window, to_decimal(b.rope_theta, 10)),
            fmt::format("第 {} 层{}：滑动窗口 {}（i - j < {} 时查询 i 看到键 j），RoPE 底数 {}", layer,
                        hf.two_kinds ? "为局部层" : "", b.sliding_window, b.sliding_window, to_decimal(b.rope_theta, 10)));
    else if (hf.two_kinds)
        say(fmt::format("layer {} is global: every earlier key, RoPE base {}", layer, to_decimal(b.rope_theta, 10)),
            fmt::format("第 {} 层为全局层：看到之前的全部键，RoPE 底数 {}", layer, to_decimal(b.rope_theta, 10)));
    return m;
}

#define BLOCKCHECK_FAMILY(T)                                                                  \
    template void read_family_fields<T>(const Json&, const std::string&, HfConfig<T>&);       \
    template BlockConfig<T> layer_block<T>(const HfConfig<T>&, std::size_t);                  \
    template std::vector<Text> layer_mechanisms<T>(const HfConfig<T>&, std::size_t);
BLOCKCHECK_FAMILY(double)
BLOCKCHECK_FAMILY(DoubleDouble)
BLOCKCHECK_FAMILY(Mpfr50)
BLOCKCHECK_FAMILY(Mpfr100)
#undef BLOCKCHECK_FAMILY

}  // namespace blockcheck
