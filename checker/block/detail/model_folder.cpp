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

std::string layer_name(std::size_t layer, const std::string& part) { return fmt::format("model.layers.{}.{}", layer, part); }

// nn.Linear's weight [out, in] as the chapter's W [in, out].
StoredMatrix linear_weight(ModelFolder& folder, const std::string& name, std::size_t in, std::size_t out, const std::string& why) {
    auto [entry, data] = folder.tensor(name);
    check_shape(*entry, {out, in}, why);
    return StoredMatrix{data, stored_type(entry->dtype), in, out, true};
}

template <class T>
Vector<T> gain_vector(ModelFolder& folder, const std::string& name, std::size_t size) {
    auto [entry, data] = folder.tensor(name);
    check_shape(*entry, {size}, "hidden_size gains");
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

template <class T>
ModelLayer<T> load_model_layer(ModelFolder& folder, std::size_t layer) {
    const HfConfig<T> hf = folder.hf_config<T>();
    const std::size_t layers = hf.num_hidden_layers;
    if (layers > 0 && layer >= layers)
        throw InputFileError(fmt::format("--layer {}: config.json has num_hidden_layers {} (layers 0 .. {})", layer,
                                         layers, layers - 1));
    ModelLayer<T> m;
    m.config = hf.block;
    const BlockConfig<T>& c = m.config;
    const std::size_t C = c.hidden_size, F = c.ffn_hidden_size, qd = c.query_heads * c.head_dim,
                      kvd = c.kv_heads * c.head_dim;
    auto name = [&](const std::string& part) { return layer_name(layer, part); };
    BlockWeights<T, StoredMatrix>& w = m.weights;
    w.attn_norm = gain_vector<T>(folder, name("input_layernorm.weight"), C);
    w.q = linear_weight(folder, name("self_attn.q_proj.weight"), C, qd, "num_attention_heads x head_dim, hidden_size");
    w.k = linear_weight(folder, name("self_attn.k_proj.weight"), C, kvd, "num_key_value_heads x head_dim, hidden_size");
    w.v = linear_weight(folder, name("self_attn.v_proj.weight"), C, kvd, "num_key_value_heads x head_dim, hidden_size");
    w.o = linear_weight(folder, name("self_attn.o_proj.weight"), qd, C, "hidden_size, num_attention_heads x head_dim");
    w.ffn_norm = gain_vector<T>(folder, name("post_attention_layernorm.weight"), C);
    w.gate = linear_weight(folder, name("mlp.gate_proj.weight"), C, F, "intermediate_size, hidden_size");
    w.up = linear_weight(folder, name("mlp.up_proj.weight"), C, F, "intermediate_size, hidden_size");
    w.down = linear_weight(folder, name("mlp.down_proj.weight"), F, C, "hidden_size, intermediate_size");
    return m;
}

std::size_t layer_bytes(ModelFolder& folder, std::size_t layer) {
    std::size_t bytes = 0;
    for (const char* part : {"input_layernorm.weight", "self_attn.q_proj.weight", "self_attn.k_proj.weight",
                             "self_attn.v_proj.weight", "self_attn.o_proj.weight", "post_attention_layernorm.weight",
                             "mlp.gate_proj.weight", "mlp.up_proj.weight", "mlp.down_proj.weight"})
        bytes += folder.tensor(layer_name(layer, part)).first->end - folder.tensor(layer_name(layer, part)).first->begin;
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
