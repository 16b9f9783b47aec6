// A Hugging Face checkpoint folder as it is downloaded: config.json, model.safetensors or
// sharded model-0000k-of-0000n.safetensors with model.safetensors.index.json. One decoder layer's
// weights are read in place: the shards are memory-mapped and the matrices stay in the file's
// element type (F64, F32, BF16, F16; each value exactly a double), widened as the block uses them.
#pragma once

#include "checker/block/tensor_files.hpp"
#include "checker/block/hf_config.hpp"
#include "solutions/block/stored_weights.hpp"

#include <filesystem>
#include <map>
#include <memory>

namespace blockcheck {

// The largest shard mapped (it is mapped, never read whole; only the layer's pages are touched).
constexpr std::uintmax_t max_shard_bytes = std::uintmax_t{1} << 40;  // 1 TiB

// A file of a checkpoint folder (open_folder_file: a regular file, links only inside the folder)
// mapped read-only for the object's lifetime, exactly the size checked on its open descriptor. A
// read of it after the file shrank ends the process with an error naming the file (exit status 2)
// rather than SIGBUS (detail/mapped_file.cpp).
class MappedFile {
public:
    MappedFile(const std::filesystem::path& folder, const std::string& name);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    std::string_view bytes() const { return {static_cast<const char*>(base_), size_}; }

private:
    void* base_ = nullptr;
    std::size_t size_ = 0;
    void* slot_ = nullptr;  // the fault handler's record of this mapping
};

// One mapped shard and the tensors its header lists.
struct MappedShard {
    std::filesystem::path file;
    std::unique_ptr<MappedFile> map;
    std::vector<TensorEntry> entries;
    std::size_t data_at = 0;
};

// The folder: its config and where each tensor lives. Shards are mapped when first asked for.
class ModelFolder {
public:
    // Reads config.json and the index (or lists model.safetensors); an InputFileError names a
    // missing or bad file.
    explicit ModelFolder(std::filesystem::path dir);

    const std::filesystem::path& dir() const { return dir_; }
    const nlohmann::ordered_json& config() const { return config_; }
    std::filesystem::path config_file() const { return dir_ / "config.json"; }
    // The block config.json describes, from the JSON read once at construction (hf_config.hpp).
    template <class T>
    HfConfig<T> hf_config() const { return read_hf_config<T>(config_, config_file().string()); }

    // The tensor `name` with its entry and its first byte; an InputFileError names a tensor the
    // folder lacks (and the file its index points to).
    std::pair<const TensorEntry*, const unsigned char*> tensor(const std::string& name);

private:
    std::filesystem::path dir_;
    nlohmann::ordered_json config_;
    std::map<std::string, std::string> shard_of_;  // tensor name -> shard file name
    std::map<std::string, std::unique_ptr<MappedShard>> shards_;
};

// One decoder layer: the block's configuration, and weights whose matrices point into the
// folder's mappings (the folder must outlive them).
template <class T>
struct ModelLayer {
    BlockConfig<T> config;
    BlockWeights<T, StoredMatrix> weights;
};

// Layer `layer` (model.layers.N.*): every tensor's shape is checked against config.json
// ([out, in] as nn.Linear stores it), the norms' gains read exactly at T's precision.
template <class T>
ModelLayer<T> load_model_layer(ModelFolder& folder, std::size_t layer);

// Bytes the layer's tensors occupy in their files (what its mapping reads).
std::size_t layer_bytes(ModelFolder& folder, std::size_t layer);

// Hidden states [T, C] (or [1, T, C]) from a .npy array or a .safetensors tensor
// ("hidden_states", "input", or the file's only tensor), as exact doubles.
Matrix<double> read_hidden_states(const std::filesystem::path& file, std::size_t hidden_size);

}  // namespace blockcheck
