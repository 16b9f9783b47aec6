// A small sharded checkpoint folder for the --model tests, the command line run in-process, and a
// port's output made by the block with a mistake.
#pragma once

#include "checker/common/cli.hpp"
#include "checker/course/commands.hpp"
#include "checker/block/layer_run.hpp"
#include "checker/student/commands.hpp"
#include "solutions/block/block_mistakes.hpp"
#include "solutions/block/double_double.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace blockcheck::testing {

using Json = nlohmann::ordered_json;

// A small Llama layer: C = 16, 4 query heads and 2 KV heads of 4, F = 24; three layers in two
// shards, layer 1's attention in BF16 and its MLP in F32 (shard 2).
struct SmallCheckpoint {
    static constexpr std::size_t C = 16, H = 4, KV = 2, d = 4, F = 24, rows = 5;
    TempDir dir{"model-folder"};
    Json config = {{"model_type", "llama"}, {"hidden_size", C}, {"intermediate_size", F},
                   {"num_attention_heads", H}, {"num_key_value_heads", KV}, {"num_hidden_layers", 3},
                   {"rms_norm_eps", 1e-05}, {"rope_theta", 500000.0}, {"max_position_embeddings", 8192},
                   {"hidden_act", "silu"}, {"attention_bias", false}};

    // value k of tensor `seed`: multiples of 1/256 in [-1/2, 1/2] (exact in BF16)
    static Tensor tensor(DType dtype, std::vector<std::size_t> shape, int seed, double offset = 0) {
        Tensor t{dtype, shape, {}};
        std::size_t n = 1;
        for (std::size_t e : shape) n *= e;
        for (std::size_t k = 0; k < n; ++k)
            t.values.push_back(offset + static_cast<double>(static_cast<long>((k * 37 + seed * 101) % 257) - 128) / 256.0);
        return t;
    }

    SmallCheckpoint() {
        NamedTensors first, second;
        Json map = Json::object();
        for (int layer = 0; layer < 3; ++layer) {
            const std::string p = "model.layers." + std::to_string(layer) + ".";
            first.emplace_back(p + "input_layernorm.weight", tensor(DType::bfloat16, {C}, layer, 1.0));
            first.emplace_back(p + "self_attn.q_proj.weight", tensor(DType::bfloat16, {H * d, C}, layer + 1));
            first.emplace_back(p + "self_attn.k_proj.weight", tensor(DType::bfloat16, {KV * d, C}, layer + 2));
            first.emplace_back(p + "self_attn.v_proj.weight", tensor(DType::bfloat16, {KV * d, C}, layer + 3));
            first.emplace_back(p + "self_attn.o_proj.weight", tensor(DType::bfloat16, {C, H * d}, layer + 4));
            second.emplace_back(p + "post_attention_layernorm.weight", tensor(DType::float32, {C}, layer + 5, 1.0));
            second.emplace_back(p + "mlp.gate_proj.weight", tensor(DType::float32, {F, C}, layer + 6));
            second.emplace_back(p + "mlp.up_proj.weight", tensor(DType::float32, {F, C}, layer + 7));
            second.emplace_back(p + "mlp.down_proj.weight", tensor(DType::float32, {C, F}, layer + 8));
        }
        for (auto& [name, t] : first) map[name] = "model-00001-of-00002.safetensors";
        for (auto& [name, t] : second) map[name] = "model-00002-of-00002.safetensors";
        write_safetensors(dir.path / "model-00001-of-00002.safetensors", first);
        write_safetensors(dir.path / "model-00002-of-00002.safetensors", second);
        std::ofstream(dir.path / "model.safetensors.index.json") << Json{{"metadata", Json::object()}, {"weight_map", map}}.dump(2);
        write_config();
        write_npy(dir.path / "hidden.npy", tensor(DType::float64, {rows, C}, 9));
    }
    void write_config() const { std::ofstream(dir.path / "config.json") << config.dump(2); }

    // The same layer as a block case (the chapter's [in, out] matrices) at 50 digits.
    BlockCase<Mpfr50> as_case(std::size_t layer) const {
        ModelFolder folder(dir.path);
        const ModelLayer<Mpfr50> m = load_model_layer<Mpfr50>(folder, layer);
        BlockCase<Mpfr50> bc;
        bc.config = m.config;
        auto dense = [](const StoredMatrix& w) {
            Matrix<Mpfr50> out(w.rows, w.cols);
            for (std::size_t i = 0; i < w.rows; ++i)
                for (std::size_t j = 0; j < w.cols; ++j) out(i, j) = Mpfr50(w(i, j));
            return out;
        };
        const auto& w = m.weights;
        bc.weights = {w.attn_norm, dense(w.q), dense(w.k), dense(w.v), dense(w.o), w.ffn_norm, dense(w.gate),
                      dense(w.up), dense(w.down)};
        const Tensor x = read_npy(dir.path / "hidden.npy");
        bc.input = Matrix<Mpfr50>(rows, C);
        for (std::size_t i = 0; i < x.values.size(); ++i) bc.input.values[i] = Mpfr50(x.values[i]);
        return bc;
    }
};

inline std::string refusal(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputFileError& e) {
        return e.what();
    }
    return "accepted";
}

// Runs the command line as `blockcheck ARGS...`; its exit status, and its stdout in `out`.
inline int run_blockcheck(std::vector<std::string> args, const std::filesystem::path& out) {
    args.insert(args.begin(), "blockcheck");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    std::fflush(stdout);
    const int saved = ::dup(STDOUT_FILENO), file = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(file, STDOUT_FILENO);
    const int status = run_command_line(static_cast<int>(argv.size()), argv.data(), BLOCKCHECK_SOURCE_DIR,
                                        {add_student_commands, add_course_commands});
    std::fflush(stdout);
    ::dup2(saved, STDOUT_FILENO);
    ::close(file), ::close(saved);
    return status;
}

inline std::string text_of(const std::filesystem::path& file) {
    std::ostringstream text;
    text << std::ifstream(file).rdbuf();
    return text.str();
}

// A port's output: the layer at double with `mistake` made (none: ""), rounded to `dtype`.
inline Tensor port_output(const SmallCheckpoint& checkpoint, const std::string& mistake, DType dtype) {
    ModelFolder folder(checkpoint.dir.path);
    ModelLayer<double> layer = load_model_layer<double>(folder, 1);
    if (!mistake.empty()) REQUIRE(make_porting_mistake(layer.config, mistake));
    const Tensor x = read_npy(checkpoint.dir.path / "hidden.npy");
    Matrix<double> rows(x.shape[0], x.shape[1]);
    rows.values = x.values;
    const Matrix<double> y = block_forward(layer.config, layer.weights, rows);
    Tensor t{dtype, {y.rows, y.cols}, {}};
    for (double v : y.values) t.values.push_back(round_to(v, dtype));
    return t;
}


}  // namespace blockcheck::testing
