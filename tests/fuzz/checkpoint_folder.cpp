// Fuzz target: a downloaded checkpoint folder as compare and forward read it (issue 40). The first
// byte picks the file the rest of the input becomes, in a folder whose other files are a valid
// one-layer checkpoint (hidden 4, FFN 8, two query heads, one KV head):
//   0  config.json                      then the layer is loaded (read_hf_config, every shape)
//   1  model.safetensors.index.json     beside the valid config and one shard
//   2  model.safetensors (whole file)   its 8-byte length, its header, its data
//   3  hidden.npy                       read as --input and as --positions would be
// A bad file must be an InputFileError naming it, never a crash, a hang or an unbounded allocation.
#include "checker/block/model_folder.hpp"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

using namespace blockcheck;
namespace fs = std::filesystem;

const char* const valid_config =
    R"({"model_type": "llama", "hidden_size": 4, "intermediate_size": 8, "num_attention_heads": 2,
        "num_key_value_heads": 1, "num_hidden_layers": 1, "rms_norm_eps": 1e-6, "rope_theta": 10000.0})";

// A tensor of `shape` whose values are small distinct numbers.
Tensor filled(std::vector<std::size_t> shape) {
    std::size_t n = 1;
    for (std::size_t e : shape) n *= e;
    Tensor t{DType::float32, std::move(shape), std::vector<double>(n)};
    for (std::size_t i = 0; i < n; ++i) t.values[i] = 0.125 * static_cast<double>(i % 7) - 0.25;
    return t;
}

NamedTensors valid_layer() {
    const std::string p = "model.layers.0.";
    return {{p + "input_layernorm.weight", filled({4})},          {p + "self_attn.q_proj.weight", filled({4, 4})},
            {p + "self_attn.k_proj.weight", filled({2, 4})},      {p + "self_attn.v_proj.weight", filled({2, 4})},
            {p + "self_attn.o_proj.weight", filled({4, 4})},      {p + "post_attention_layernorm.weight", filled({4})},
            {p + "mlp.gate_proj.weight", filled({8, 4})},         {p + "mlp.up_proj.weight", filled({8, 4})},
            {p + "mlp.down_proj.weight", filled({4, 8})}};
}

void put(const fs::path& file, const std::string& bytes) { std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes; }

// The folder, made once a process and removed at its end; every input rewrites the files it touches.
struct FuzzFolder {
    fs::path path = fs::temp_directory_path() / ("blockcheck-fuzz-checkpoint-" + std::to_string(::getpid()));
    FuzzFolder() { fs::create_directories(path); }
    ~FuzzFolder() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

const fs::path& folder() {
    static const FuzzFolder dir;
    return dir.path;
}

void reset_folder() {
    const fs::path& dir = folder();
    std::error_code ignored;
    fs::remove(dir / "model.safetensors.index.json", ignored);
    put(dir / "config.json", valid_config);
    static const NamedTensors layer = valid_layer();
    write_safetensors(dir / "model.safetensors", layer);
}

void load_layer() {
    ModelFolder f(folder());
    const ModelLayer<double> m = load_model_layer<double>(f, 0);
    (void)layer_bytes(f, 0);
    (void)m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    reset_folder();
    const fs::path& dir = folder();
    try {
        switch (data[0] % 4) {
            case 0: put(dir / "config.json", rest); load_layer(); break;
            case 1:
                put(dir / "model.safetensors.index.json", rest);
                load_layer();
                break;
            case 2: put(dir / "model.safetensors", rest); load_layer(); break;
            default:
                put(dir / "hidden.npy", rest);
                try {
                    (void)read_hidden_states(dir / "hidden.npy", 4);
                } catch (const InputFileError&) {
                }
                (void)read_npy(dir / "hidden.npy");
                break;
        }
    } catch (const InputFileError&) {
    }
    return 0;
}
