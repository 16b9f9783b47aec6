#include "checker/block/case_new.hpp"

#include "checker/block/block_case_files.hpp"
#include "checker/block/hf_config.hpp"
#include "checker/block/tensor_files.hpp"
#include "checker/common/files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

inline constexpr std::size_t inline_numbers = std::size_t(1) << 20;  // beyond: tensors in a .safetensors
inline constexpr std::size_t most_numbers = std::size_t(1) << 29;    // a 4 GiB float64 file

// The case's "config": the config.json's block (or the defaults), then each option given.
Json new_case_config(const NewCaseOptions& o, std::vector<Text>& notes) {
    Json c = Json{{"hidden_size", 16}, {"query_heads", 4}, {"rms_norm_eps", "0.00001"}, {"rope_theta", 10000},
                  {"rope_layout", "interleaved"}};
    if (o.hf_config) {
        HfConfig<Mpfr50> hf = read_hf_config_file<Mpfr50>(*o.hf_config);
        if (!layer_mechanisms(hf, 0).empty())
            throw InputFileError(*o.hf_config + ": model_type " + hf.model_type + ": a block case holds a LLaMA layer; "
                                 "make a small checkpoint folder of this family with case new --family " + hf.model_type);
        c = hf.case_config;
        notes = hf.notes;
    }
    auto set = [&](const char* key, const auto& value) {
        if (value) c[key] = *value;
    };
    set("hidden_size", o.hidden_size);
    set("query_heads", o.query_heads);
    set("kv_heads", o.kv_heads);
    set("head_dim", o.head_dim);
    set("ffn_hidden_size", o.ffn_hidden_size);
    set("max_position_embeddings", o.max_position_embeddings);
    set("rms_norm_eps", o.rms_norm_eps);
    set("rope_theta", o.rope_theta);
    set("rope_layout", o.rope_layout);
    if (o.rope_scaling) {
        const Json scaling = *o.rope_scaling == "none" ? Json() : parse_json_exact(*o.rope_scaling, "--rope-scaling");
        if (scaling.is_null()) c.erase("rope_scaling");
        else c["rope_scaling"] = scaling;
    }
    const std::size_t hidden = c["hidden_size"].is_number_unsigned() ? c["hidden_size"].get<std::size_t>() : 0;
    const std::size_t heads = c["query_heads"].is_number_unsigned() ? c["query_heads"].get<std::size_t>() : 0;
    if (!c.contains("head_dim")) {
        if (heads == 0 || hidden % heads != 0)
            throw InputFileError(fmt::format("--head-dim: hidden_size {} is not a multiple of query_heads {}; give "
                                             "the head width", hidden, heads));
        c["head_dim"] = hidden / heads;
    }
    if (!c.contains("ffn_hidden_size")) c["ffn_hidden_size"] = (3 * hidden + 7) / 8 * 8;
    Json ordered = Json::object();  // in the order docs/block-case.md lists the fields
    for (const char* key : {"hidden_size", "query_heads", "kv_heads", "head_dim", "ffn_hidden_size", "rms_norm_eps",
                            "rope_theta", "rope_layout", "rope_scaling", "max_position_embeddings"})
        if (c.contains(key)) ordered[key] = c[key];
    return ordered;
}

// Uniform in [-1, 1) from the engine's 53 high bits: the same numbers on every machine.
double uniform(std::mt19937_64& engine) { return static_cast<double>(engine() >> 11) * 0x1p-52 - 1.0; }

// [rows, cols] of uniform values in +-scale.
Tensor uniform_tensor(std::mt19937_64& engine, std::size_t rows, std::size_t cols, double scale) {
    Tensor t{DType::float64, {rows, cols}, std::vector<double>(rows * cols)};
    for (double& x : t.values) x = scale * uniform(engine);
    return t;
}

Tensor gains(std::mt19937_64& engine, std::size_t size) {
    Tensor t{DType::float64, {size}, std::vector<double>(size)};
    for (double& x : t.values) x = 1.0 + 0.25 * uniform(engine);
    return t;
}

// T rows of C, each scaled to root mean square `rms`.
Tensor input_rows(std::mt19937_64& engine, std::size_t rows, std::size_t cols, double rms) {
    Tensor t = uniform_tensor(engine, rows, cols, 1.0);
    for (std::size_t r = 0; r < rows; ++r) {
        double sum = 0;
        for (std::size_t c = 0; c < cols; ++c) sum += t.values[r * cols + c] * t.values[r * cols + c];
        const double scale = rms / std::sqrt(sum / static_cast<double>(cols));
        for (std::size_t c = 0; c < cols; ++c) t.values[r * cols + c] *= scale;
    }
    return t;
}

// The block's weights in [in, out] and the input, in the order the case file lists them.
NamedTensors random_tensors(const BlockConfig<double>& c, std::size_t rows, double rms, unsigned long long seed) {
    std::mt19937_64 engine(seed);
    const std::size_t C = c.hidden_size, F = c.ffn_hidden_size;
    const std::size_t qd = c.query_heads * c.head_dim, kvd = c.kv_heads * c.head_dim;
    auto spread = [](std::size_t in) { return std::sqrt(3.0 / static_cast<double>(in)); };  // unit variance out
    NamedTensors t;
    t.emplace_back("attn_norm", gains(engine, C));
    t.emplace_back("q", uniform_tensor(engine, C, qd, spread(C)));
    t.emplace_back("k", uniform_tensor(engine, C, kvd, spread(C)));
    t.emplace_back("v", uniform_tensor(engine, C, kvd, spread(C)));
    t.emplace_back("o", uniform_tensor(engine, qd, C, spread(qd)));
    t.emplace_back("ffn_norm", gains(engine, C));
    t.emplace_back("gate", uniform_tensor(engine, C, F, spread(C)));
    t.emplace_back("up", uniform_tensor(engine, C, F, spread(C)));
    t.emplace_back("down", uniform_tensor(engine, F, C, spread(F)));
    t.emplace_back("input", input_rows(engine, rows, C, rms));
    return t;
}

// A vector or [rows, cols] matrix as JSON of 8-digit decimals.
Json decimals(const Tensor& t) {
    auto text = [](double x) { return to_decimal(x, 8); };
    Json out = Json::array();
    if (t.shape.size() == 1) {
        for (double x : t.values) out.push_back(text(x));
        return out;
    }
    for (std::size_t r = 0; r < t.shape[0]; ++r) {
        Json row = Json::array();
        for (std::size_t c = 0; c < t.shape[1]; ++c) row.push_back(text(t.values[r * t.shape[1] + c]));
        out.push_back(std::move(row));
    }
    return out;
}

std::size_t numbers_in(const BlockConfig<double>& c, std::size_t rows) {
    const std::size_t C = c.hidden_size, F = c.ffn_hidden_size;
    const std::size_t qd = c.query_heads * c.head_dim, kvd = c.kv_heads * c.head_dim;
    return 2 * C + C * (2 * qd + 2 * kvd) + 3 * C * F + rows * C;
}

// The config.json of a small layer of `family` (two layers; see FamilyFolder).
Json family_config(const std::string& family) {
    Json c = {{"model_type", family}, {"hidden_size", 32}, {"intermediate_size", 48}, {"num_attention_heads", 4},
              {"num_key_value_heads", 2}, {"head_dim", 8}, {"num_hidden_layers", 2}, {"rms_norm_eps", 1e-06},
              {"rope_theta", 10000.0}, {"max_position_embeddings", 4096}, {"hidden_act", "silu"},
              {"torch_dtype", "float32"}, {"vocab_size", 1000}};
    if (family == "mistral" || family == "phi3") c["sliding_window"] = 4;
    if (family == "qwen2" || family == "qwen3")
        c.update({{"use_sliding_window", true}, {"sliding_window", 4}, {"max_window_layers", 1}});
    if (family == "qwen3") c["head_dim"] = 16;  // not hidden_size / heads
    if (family == "gemma2" || family == "gemma3_text")
        c.update({{"head_dim", 16}, {"hidden_activation", "gelu_pytorch_tanh"}, {"hidden_act", "gelu_pytorch_tanh"},
                  {"query_pre_attn_scalar", 24}, {"attn_logit_softcapping", 1.0}, {"final_logit_softcapping", 30.0},
                  {"sliding_window", 4}});
    if (family == "gemma3_text")
        c.update({{"sliding_window_pattern", 2}, {"rope_theta", 1000000.0}, {"rope_local_base_freq", 10000.0}});
    if (family == "phi3") c.update({{"num_key_value_heads", 2}, {"partial_rotary_factor", 0.5}, {"rms_norm_eps", 1e-05}});
    if (family == "olmo2") c.update({{"rms_norm_eps", 1e-05}, {"attention_bias", false}});
    return c;
}

// gemma3 as Gemma3ForConditionalGeneration writes it: gemma3_text's config under text_config.
Json nested_gemma3_config() {
    return {{"model_type", "gemma3"}, {"architectures", {"Gemma3ForConditionalGeneration"}},
            {"text_config", family_config("gemma3_text")}, {"vision_config", {{"model_type", "siglip_vision_model"}}}};
}

// [rows, cols] (or [rows]) of values rounded to float: uniform in +-scale around `offset`.
Tensor float_tensor(std::mt19937_64& engine, std::vector<std::size_t> shape, double scale, double offset = 0) {
    Tensor t{DType::float32, shape, {}};
    const std::size_t n = shape.size() == 1 ? shape[0] : shape[0] * shape[1];
    for (std::size_t i = 0; i < n; ++i) t.values.push_back(static_cast<float>(offset + scale * uniform(engine)));
    return t;
}

}  // namespace

std::vector<std::filesystem::path> write_family_folder(const std::filesystem::path& dir, const FamilyFolder& o) {
    if (std::find(std::begin(family_names), std::end(family_names), o.family) == std::end(family_names))
        throw InputFileError("--family: " + o.family + ": expected one of llama, mistral, qwen2, qwen3, gemma2, "
                             "gemma3, gemma3_text, phi3, olmo2");
    if (o.rows == 0 || o.rows > max_case_rows) throw InputFileError(fmt::format("--rows: {} is not between 1 and {}", o.rows, max_case_rows));
    const std::vector<std::filesystem::path> files = {dir / "config.json", dir / "model.safetensors", dir / "hidden.npy"};
    if (!o.force)
        for (const auto& file : files)
            if (std::filesystem::exists(file)) throw InputFileError(file.string() + ": already exists; give --force to overwrite it");
    const bool nested = o.family == "gemma3";  // its layers under model.language_model
    const Json config = nested ? nested_gemma3_config() : family_config(o.family);
    const HfConfig<double> hf = read_hf_config<double>(parse_json_exact(config.dump(), "config.json"), "config.json");
    const BlockConfig<double>& c = hf.block;
    const std::size_t C = c.hidden_size, F = c.ffn_hidden_size, qd = c.query_heads * c.head_dim,
                      kvd = c.kv_heads * c.head_dim, d = c.head_dim;
    auto spread = [](std::size_t in) { return std::sqrt(3.0 / static_cast<double>(in)); };
    const double gain_offset = c.gain_plus_one ? 0.0 : 1.0;  // Gemma stores g with 1 + g the gain
    std::mt19937_64 engine(o.seed);
    NamedTensors t;
    for (std::size_t layer = 0; layer < 2; ++layer) {
        const std::string p = fmt::format("model.{}layers.{}.", nested ? "language_model." : "", layer);
        auto gains = [&](const std::string& name, std::size_t n) { t.emplace_back(p + name, float_tensor(engine, {n}, 0.25, gain_offset)); };
        auto linear = [&](const std::string& name, std::size_t out, std::size_t in) {
            t.emplace_back(p + name, float_tensor(engine, {out, in}, spread(in)));
        };
        if (c.norm_sides != NormSides::output) gains("input_layernorm.weight", C);
        if (c.fused_qkv) linear("self_attn.qkv_proj.weight", qd + 2 * kvd, C);
        else linear("self_attn.q_proj.weight", qd, C), linear("self_attn.k_proj.weight", kvd, C), linear("self_attn.v_proj.weight", kvd, C);
        if (c.qkv_bias)
            for (const auto& [name, n] : {std::pair{"q", qd}, std::pair{"k", kvd}, std::pair{"v", kvd}})
                t.emplace_back(p + "self_attn." + name + "_proj.bias", float_tensor(engine, {n}, 0.5));
        if (c.qk_norm != QkNorm::none) {
            const bool whole = c.qk_norm == QkNorm::whole;
            gains("self_attn.q_norm.weight", whole ? qd : d);
            gains("self_attn.k_norm.weight", whole ? kvd : d);
        }
        linear("self_attn.o_proj.weight", C, qd);
        gains("post_attention_layernorm.weight", C);
        if (c.norm_sides == NormSides::both) gains("pre_feedforward_layernorm.weight", C);
        if (hf.fused_gate_up) linear("mlp.gate_up_proj.weight", 2 * F, C);
        else linear("mlp.gate_proj.weight", F, C), linear("mlp.up_proj.weight", F, C);
        linear("mlp.down_proj.weight", C, F);
        if (c.norm_sides != NormSides::input) gains("post_feedforward_layernorm.weight", C);
    }
    std::filesystem::create_directories(dir);
    write_named_file(files[0], config.dump(2) + "\n");
    write_safetensors(files[1], t, {{"format", "pt"}});
    write_npy(files[2], input_rows(engine, o.rows, C, 1.0));
    return files;
}

NewCase write_new_case(const std::filesystem::path& out, const NewCaseOptions& o) {
    NewCase made;
    const Json config = new_case_config(o, made.notes);
    const BlockConfig<double> c = read_block_config<double>(config, "case new: config");
    if (o.rows == 0 || o.rows > max_case_rows)
        throw InputFileError(fmt::format("--rows: {} is not between 1 and {}", o.rows, max_case_rows));
    if (o.start_position < 0 || o.start_position > max_case_position)
        throw InputFileError(fmt::format("--start-position: {} is not between 0 and {}", o.start_position, max_case_position));
    const double rms = json_number<double>(Json(o.input_rms), "--input-rms");
    if (!(rms > 0)) throw InputFileError("--input-rms: must be greater than 0");
    const std::size_t numbers = numbers_in(c, o.rows);
    if (numbers > most_numbers)
        throw InputFileError(fmt::format("case new: {} numbers is beyond the limit of {} (a 4 GiB file); give a smaller "
                                         "--hidden-size or --ffn-hidden-size (the heads and RoPE stay)",
                                         numbers, most_numbers));
    const bool beside = numbers > inline_numbers;
    std::filesystem::path tensors_file = out;
    tensors_file.replace_extension(".safetensors");
    std::vector<std::filesystem::path>& files = made.files;
    files = {out};
    if (beside) files.push_back(tensors_file);
    if (!o.force)
        for (const auto& file : files)
            if (std::filesystem::exists(file))
                throw InputFileError(file.string() + ": already exists; give --force to overwrite it");

    NamedTensors tensors = random_tensors(c, o.rows, rms, o.seed);
    Json json = {{"config", config}};
    if (beside) {
        write_safetensors(tensors_file, tensors, {{"seed", std::to_string(o.seed)}});
        json["weights"] = json["input"] = tensors_file.filename().string();
    } else {
        json["weights"] = Json::object();
        for (const auto& [name, t] : tensors)
            if (name != "input") json["weights"][name] = decimals(t);
        json["input"] = decimals(tensors.back().second);
    }
    json["start_position"] = o.start_position;
    write_named_file(out, laid_out_json(json) + "\n");
    return made;
}

}  // namespace blockcheck
