#include "checker/block/model_folder.hpp"

#include "checker/common/files.hpp"
#include "checker/common/json_exact.hpp"
#include "solutions/block/double_double.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

StoredType stored_type(DType dtype) {
    switch (dtype) {
        case DType::float64: return StoredType::float64;
        case DType::float32: return StoredType::float32;
        case DType::bfloat16: return StoredType::bfloat16;
        case DType::float16: return StoredType::float16;
    }
    return StoredType::float32;
}


// A tensor's shape must be `expected` exactly.
void check_shape(const TensorEntry& entry, const std::vector<std::size_t>& expected, const std::string& why) {
    if (entry.shape != expected)
        throw InputFileError(fmt::format("{}: shape {}, expected {} ({})", entry.name, shape_text(entry.shape),
                                         shape_text(expected), why));
}

// nn.Linear's weight [out, in] as the chapter's W [in, out].
StoredMatrix linear_weight(ModelFolder& folder, const std::string& name, std::size_t in, std::size_t out, const std::string& why) {
    auto [entry, data] = folder.tensor(name);
    check_shape(*entry, {out, in}, why);
    return StoredMatrix{data, stored_type(entry->dtype), in, out, true};
}

template <class T>
Vector<T> gain_vector(ModelFolder& folder, const std::string& name, std::size_t size, const char* why) {
    auto [entry, data] = folder.tensor(name);
    check_shape(*entry, {size}, why);
    const StoredMatrix m{data, stored_type(entry->dtype), size, 1, true};
    Vector<T> v(size);
    for (std::size_t i = 0; i < size; ++i) v[i] = T(m(i, 0));
    return v;
}

}  // namespace

ModelFolder::ModelFolder(std::filesystem::path dir) : dir_(std::move(dir)) {
    if (!std::filesystem::is_directory(dir_)) throw InputFileError(dir_.string() + ": not a folder");
    // Every file through open_folder_file (files.hpp): regular files only, links only inside the folder.
    config_ = parse_json_exact(read_folder_file(dir_, "config.json", max_json_file_bytes), config_file().string());
    const std::filesystem::path index = dir_ / "model.safetensors.index.json";
    if (std::filesystem::exists(index)) {
        const Json json = parse_json_exact(read_folder_file(dir_, "model.safetensors.index.json", max_json_file_bytes), index.string());
        if (!json.is_object() || !json.contains("weight_map") || !json["weight_map"].is_object())
            throw InputFileError(index.string() + ": expected an object with \"weight_map\" {tensor: file}");
        for (auto& [name, file] : json["weight_map"].items()) {
            if (!file.is_string() || file.get<std::string>().find('/') != std::string::npos)
                throw InputFileError(index.string() + ": weight_map." + name + ": expected a file name in the folder");
            shard_of_[name] = file.get<std::string>();
        }
        return;
    }
    const std::filesystem::path single = dir_ / "model.safetensors";
    if (!std::filesystem::exists(single))
        throw InputFileError(dir_.string() + ": neither model.safetensors.index.json nor model.safetensors");
    auto shard = std::make_unique<MappedShard>();
    shard->file = single;
    shard->map = std::make_unique<MappedFile>(dir_, "model.safetensors");
    shard->entries = safetensors_entries(shard->map->bytes(), single.string(), shard->data_at);
    for (const TensorEntry& e : shard->entries) shard_of_[e.name] = "model.safetensors";
    shards_["model.safetensors"] = std::move(shard);
}

std::pair<const TensorEntry*, const unsigned char*> ModelFolder::tensor(const std::string& name) {
    auto where = shard_of_.find(name);
    if (where == shard_of_.end()) throw InputFileError(dir_.string() + ": the checkpoint has no tensor " + name);
    std::unique_ptr<MappedShard>& shard = shards_[where->second];
    if (!shard) {
        shard = std::make_unique<MappedShard>();
        shard->file = dir_ / where->second;
        shard->map = std::make_unique<MappedFile>(dir_, where->second);
        shard->entries = safetensors_entries(shard->map->bytes(), shard->file.string(), shard->data_at);
    }
    for (const TensorEntry& e : shard->entries)
        if (e.name == name)
            return {&e, reinterpret_cast<const unsigned char*>(shard->map->bytes().data()) + shard->data_at + e.begin};
    throw InputFileError(shard->file.string() + ": has no tensor " + name + " (the index puts it there)");
}

namespace {

// The tensors of layer `layer` by their names in the family's checkpoints (docs/checkpoints.md), with
// the shape each must have, [out, in] as nn.Linear stores it.
struct LayerTensor {
    std::string part;                 // after the prefix: "self_attn.q_proj.weight"
    std::vector<std::size_t> shape;
    const char* why;
};

template <class T>
std::vector<LayerTensor> layer_tensors(const HfConfig<T>& hf) {
    const BlockConfig<T>& c = hf.block;
    const std::size_t C = c.hidden_size, F = c.ffn_hidden_size, qd = c.query_heads * c.head_dim,
                      kvd = c.kv_heads * c.head_dim, d = c.head_dim;
    std::vector<LayerTensor> t;
    const bool before = c.norm_sides != NormSides::output, after = c.norm_sides != NormSides::input;
    if (before) t.push_back({"input_layernorm.weight", {C}, "hidden_size gains"});
    if (c.fused_qkv) t.push_back({"self_attn.qkv_proj.weight", {qd + 2 * kvd, C}, "(num_attention_heads + 2 num_key_value_heads) x head_dim, hidden_size"});
    else {
        t.push_back({"self_attn.q_proj.weight", {qd, C}, "num_attention_heads x head_dim, hidden_size"});
        t.push_back({"self_attn.k_proj.weight", {kvd, C}, "num_key_value_heads x head_dim, hidden_size"});
        t.push_back({"self_attn.v_proj.weight", {kvd, C}, "num_key_value_heads x head_dim, hidden_size"});
    }
    if (c.qkv_bias) {
        t.push_back({"self_attn.q_proj.bias", {qd}, "num_attention_heads x head_dim"});
        t.push_back({"self_attn.k_proj.bias", {kvd}, "num_key_value_heads x head_dim"});
        t.push_back({"self_attn.v_proj.bias", {kvd}, "num_key_value_heads x head_dim"});
    }
    const bool whole = c.qk_norm == QkNorm::whole;
    if (c.qk_norm != QkNorm::none) {
        t.push_back({"self_attn.q_norm.weight", {whole ? qd : d}, whole ? "num_attention_heads x head_dim gains" : "head_dim gains"});
        t.push_back({"self_attn.k_norm.weight", {whole ? kvd : d}, whole ? "num_key_value_heads x head_dim gains" : "head_dim gains"});
    }
    t.push_back({"self_attn.o_proj.weight", {C, qd}, "hidden_size, num_attention_heads x head_dim"});
    if (after) t.push_back({"post_attention_layernorm.weight", {C}, "hidden_size gains"});
    if (c.norm_sides == NormSides::input) t.push_back({"post_attention_layernorm.weight", {C}, "hidden_size gains"});
    if (c.norm_sides == NormSides::both) t.push_back({"pre_feedforward_layernorm.weight", {C}, "hidden_size gains"});
    if (hf.fused_gate_up) t.push_back({"mlp.gate_up_proj.weight", {2 * F, C}, "2 x intermediate_size, hidden_size"});
    else {
        t.push_back({"mlp.gate_proj.weight", {F, C}, "intermediate_size, hidden_size"});
        t.push_back({"mlp.up_proj.weight", {F, C}, "intermediate_size, hidden_size"});
    }
    t.push_back({"mlp.down_proj.weight", {C, F}, "hidden_size, intermediate_size"});
    if (after) t.push_back({"post_feedforward_layernorm.weight", {C}, "hidden_size gains"});
    return t;
}

// The prefix of the layers' names: the first of the family's under which the folder has the layer's
// first tensor (model.layers.N. but for Gemma 3's nested checkpoints).
template <class T>
std::string layer_prefix(ModelFolder& folder, const HfConfig<T>& hf, std::size_t layer, const std::string& first) {
    for (const std::string& prefix : hf.layer_prefixes) {
        try {
            folder.tensor(prefix + std::to_string(layer) + "." + first);
            return prefix + std::to_string(layer) + ".";
        } catch (const InputFileError&) {
        }
    }
    return hf.layer_prefixes.front() + std::to_string(layer) + ".";  // its error names the tensor missing
}

// Output rows [begin, begin + count) of a stored nn.Linear weight: the chapter's W with those columns.
StoredMatrix output_rows(const StoredMatrix& w, std::size_t begin, std::size_t count) {
    StoredMatrix part = w;
    part.data += begin * w.rows * stored_bytes(w.type);
    part.cols = count;
    return part;
}

}  // namespace

template <class T>
ModelLayer<T> load_model_layer(ModelFolder& folder, std::size_t layer) {
    const HfConfig<T> hf = folder.hf_config<T>();
    const std::size_t layers = hf.num_hidden_layers;
    if (layers > 0 && layer >= layers)
        throw InputFileError(fmt::format("--layer {}: config.json has num_hidden_layers {} (layers 0 .. {})", layer,
                                         layers, layers - 1));
    ModelLayer<T> m;
    m.config = layer_block(hf, layer);
    const BlockConfig<T>& c = m.config;
    const std::size_t qd = c.query_heads * c.head_dim, kvd = c.kv_heads * c.head_dim, F = c.ffn_hidden_size;
    const std::vector<LayerTensor> tensors = layer_tensors(hf);
    const std::string prefix = layer_prefix(folder, hf, layer, tensors.front().part);
    std::map<std::string, StoredMatrix> matrices;
    std::map<std::string, Vector<T>> vectors;
    for (const LayerTensor& t : tensors) {
        if (t.shape.size() == 1) vectors[t.part] = gain_vector<T>(folder, prefix + t.part, t.shape[0], t.why);
        else matrices[t.part] = linear_weight(folder, prefix + t.part, t.shape[1], t.shape[0], t.why);
    }
    BlockWeights<T, StoredMatrix>& w = m.weights;
    auto vector = [&](const std::string& part) { return vectors.count(part) ? vectors[part] : Vector<T>{}; };
    const bool both = c.norm_sides == NormSides::both, after = c.norm_sides != NormSides::input;
    w.attn_norm = vector("input_layernorm.weight");
    w.attn_out_norm = after ? vector("post_attention_layernorm.weight") : Vector<T>{};
    w.ffn_norm = both ? vector("pre_feedforward_layernorm.weight") : after ? Vector<T>{} : vector("post_attention_layernorm.weight");
    w.ffn_out_norm = vector("post_feedforward_layernorm.weight");
    if (c.fused_qkv) {  // Phi3Attention: query rows, then key rows, then value rows
        const StoredMatrix& qkv = matrices["self_attn.qkv_proj.weight"];
        w.q = output_rows(qkv, 0, qd), w.k = output_rows(qkv, qd, kvd), w.v = output_rows(qkv, qd + kvd, kvd);
    } else {
        w.q = matrices["self_attn.q_proj.weight"], w.k = matrices["self_attn.k_proj.weight"], w.v = matrices["self_attn.v_proj.weight"];
    }
    w.q_bias = vector("self_attn.q_proj.bias"), w.k_bias = vector("self_attn.k_proj.bias"), w.v_bias = vector("self_attn.v_proj.bias");
    w.q_norm = vector("self_attn.q_norm.weight"), w.k_norm = vector("self_attn.k_norm.weight");
    w.o = matrices["self_attn.o_proj.weight"];
    if (hf.fused_gate_up) {  // Phi3MLP: gate, up = gate_up_proj(x).chunk(2)
        const StoredMatrix& gate_up = matrices["mlp.gate_up_proj.weight"];
        w.gate = output_rows(gate_up, 0, F), w.up = output_rows(gate_up, F, F);
    } else {
        w.gate = matrices["mlp.gate_proj.weight"], w.up = matrices["mlp.up_proj.weight"];
    }
    w.down = matrices["mlp.down_proj.weight"];
    return m;
}

std::size_t layer_bytes(ModelFolder& folder, std::size_t layer) {
    const HfConfig<double> hf = folder.hf_config<double>();
    const std::vector<LayerTensor> tensors = layer_tensors(hf);
    const std::string prefix = layer_prefix(folder, hf, layer, tensors.front().part);
    std::size_t bytes = 0;
    for (const LayerTensor& t : tensors) {
        const TensorEntry* entry = folder.tensor(prefix + t.part).first;
        bytes += entry->end - entry->begin;
    }
    return bytes;
}

Matrix<double> read_hidden_states(const std::filesystem::path& file, std::size_t hidden_size) {
    Tensor t;
    if (file.extension() == ".npy") {
        t = read_npy(file);
    } else if (file.extension() == ".safetensors") {
        const SafetensorsFile opened = open_safetensors(file);  // only the tensor used is converted
        const TensorEntry* entry = opened.entries.size() == 1 ? &opened.entries.front() : opened.find("hidden_states");
        if (!entry) entry = opened.find("input");
        if (!entry)
            throw InputFileError(file.string() + ": no tensor named hidden_states or input (and more than one tensor)");
        t = opened.values(*entry);
    } else {
        throw InputFileError(file.string() + ": --input takes a .npy or .safetensors file");
    }
    if (t.shape.size() == 3 && t.shape[0] == 1) t.shape.erase(t.shape.begin());
    if (t.shape.size() != 2 || t.shape[1] != hidden_size || t.shape[0] == 0)
        throw InputFileError(fmt::format("{}: shape {}, expected [T, {}] or [1, T, {}] (hidden_size from config.json)",
                                         file.string(), shape_text(t.shape), hidden_size, hidden_size));
    Matrix<double> x(t.shape[0], t.shape[1]);
    x.values = std::move(t.values);
    return x;
}

template ModelLayer<double> load_model_layer<double>(ModelFolder&, std::size_t);
template ModelLayer<DoubleDouble> load_model_layer<DoubleDouble>(ModelFolder&, std::size_t);
template ModelLayer<Mpfr50> load_model_layer<Mpfr50>(ModelFolder&, std::size_t);
template ModelLayer<Mpfr100> load_model_layer<Mpfr100>(ModelFolder&, std::size_t);

}  // namespace blockcheck
