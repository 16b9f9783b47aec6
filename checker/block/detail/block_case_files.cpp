#include "checker/block/block_case_files.hpp"

#include "checker/block/hf_config.hpp"
#include "checker/block/tensor_files.hpp"
#include "checker/common/files.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

struct WeightName {
    const char* ours;
    const char* hf;
};

// The block's weight names and Hugging Face's LlamaDecoderLayer parameter names.
const std::vector<WeightName>& weight_names() {
    static const std::vector<WeightName> names = {
        {"attn_norm", "input_layernorm.weight"},   {"q", "self_attn.q_proj.weight"},
        {"k", "self_attn.k_proj.weight"},          {"v", "self_attn.v_proj.weight"},
        {"o", "self_attn.o_proj.weight"},          {"ffn_norm", "post_attention_layernorm.weight"},
        {"gate", "mlp.gate_proj.weight"},          {"up", "mlp.up_proj.weight"},
        {"down", "mlp.down_proj.weight"},
    };
    return names;
}

// Enough digits that the decimal is the double exactly at every working precision.
std::string exact_decimal(double x) { return to_decimal(x, 120); }

// Output row j of a [out, in] q_proj/k_proj in Hugging Face's half layout holds the block's
// interleaved row: within each head of width d, half row i < d/2 is interleaved row 2i, and
// half row d/2 + i is interleaved row 2i + 1 (pair i's two coordinates in either layout).
std::size_t interleaved_row(std::size_t half_row, std::size_t head_dim) {
    const std::size_t head = half_row / head_dim, i = half_row % head_dim, h = head_dim / 2;
    const auto [first, second] = rope_pair(RopeLayout::interleaved, i % h, head_dim);
    return head * head_dim + (i < h ? first : second);
}

// A [rows, cols] tensor as JSON rows of exact decimals; `transpose` reads it as [cols, rows].
Json json_rows(const Tensor& t, bool transpose, const std::string& where) {
    if (t.shape.size() != 2) throw InputFileError(where + ": expected a 2-dimensional tensor");
    const std::size_t rows = t.shape[0], cols = t.shape[1];
    Json out = Json::array();
    const std::size_t out_rows = transpose ? cols : rows, out_cols = transpose ? rows : cols;
    for (std::size_t r = 0; r < out_rows; ++r) {
        Json row = Json::array();
        for (std::size_t c = 0; c < out_cols; ++c)
            row.push_back(exact_decimal(transpose ? t.values[c * cols + r] : t.values[r * cols + c]));
        out.push_back(std::move(row));
    }
    return out;
}

Json json_vector(const Tensor& t, const std::string& where) {
    if (t.shape.size() != 1) throw InputFileError(where + ": expected a 1-dimensional tensor");
    Json out = Json::array();
    for (double x : t.values) out.push_back(exact_decimal(x));
    return out;
}


// Undoes the export's permutation of q_proj / k_proj rows for an interleaved case.
Tensor to_interleaved_rows(const Tensor& t, std::size_t head_dim, const std::string& where) {
    if (t.shape.size() != 2 || head_dim == 0 || t.shape[0] % head_dim != 0)
        throw InputFileError(where + ": rows are not whole heads of head_dim");
    Tensor out = t;
    const std::size_t cols = t.shape[1];
    for (std::size_t r = 0; r < t.shape[0]; ++r)
        std::copy_n(t.values.begin() + r * cols, cols, out.values.begin() + interleaved_row(r, head_dim) * cols);
    return out;
}

Json weights_from(const std::filesystem::path& file, const Json& config) {
    const SafetensorsFile tensors = open_safetensors(file);  // only the block's tensors are converted
    const bool hf = tensors.find("self_attn.q_proj.weight") != nullptr;
    const bool interleaved = config.is_object() && config.value("rope_layout", std::string("interleaved")) == "interleaved";
    const std::size_t head_dim = config.is_object() && config.contains("head_dim") && config["head_dim"].is_number_unsigned()
                                     ? config["head_dim"].get<std::size_t>()
                                     : 0;
    Json weights = Json::object();
    for (const WeightName& n : weight_names()) {
        const std::string key = hf ? n.hf : n.ours, where = file.string() + ": " + key;
        const TensorEntry* entry = tensors.find(key);
        if (!entry) throw InputFileError(where + ": missing tensor");
        const Tensor values = tensors.values(*entry);
        const Tensor* t = &values;
        const bool vector = std::string(n.ours).ends_with("norm");
        if (vector) weights[n.ours] = json_vector(*t, where);
        else if (hf && interleaved && (std::string(n.ours) == "q" || std::string(n.ours) == "k"))
            weights[n.ours] = json_rows(to_interleaved_rows(*t, head_dim, where), true, where);
        else weights[n.ours] = json_rows(*t, hf, where);
    }
    return weights;
}

Json input_from(const std::filesystem::path& file) {
    const SafetensorsFile tensors = open_safetensors(file);
    const TensorEntry* entry = tensors.find("input");
    if (!entry) throw InputFileError(file.string() + ": input: missing tensor");
    Tensor squeezed = tensors.values(*entry);
    while (squeezed.shape.size() > 2 && squeezed.shape.front() == 1) squeezed.shape.erase(squeezed.shape.begin());
    return json_rows(squeezed, false, file.string() + ": input");
}

Tensor tensor_of(const Matrix<double>& m, bool transpose) {
    Tensor t{DType::float64, transpose ? std::vector<std::size_t>{m.cols, m.rows} : std::vector<std::size_t>{m.rows, m.cols}, {}};
    for (std::size_t r = 0; r < t.shape[0]; ++r)
        for (std::size_t c = 0; c < t.shape[1]; ++c) t.values.push_back(transpose ? m(c, r) : m(r, c));
    return t;
}

// [in, out] weights as [out, in]; for q and k of an interleaved case, rows in half layout.
Tensor hf_weight(const Matrix<double>& w, bool permute_heads, std::size_t head_dim) {
    Tensor t = tensor_of(w, true);
    if (!permute_heads) return t;
    Tensor out = t;
    const std::size_t cols = t.shape[1];
    for (std::size_t r = 0; r < t.shape[0]; ++r)
        std::copy_n(t.values.begin() + interleaved_row(r, head_dim) * cols, cols, out.values.begin() + r * cols);
    return out;
}

void write_json_file(const std::filesystem::path& file, const Json& json) { write_named_file(file, json.dump(2) + "\n"); }

// One row on one line: ["0.1", "0.2"].
std::string row_text(const Json& row) {
    std::string out = "[";
    for (std::size_t i = 0; i < row.size(); ++i) out += (i ? ", " : "") + row[i].dump();
    return out + "]";
}

std::string laid_out(const Json& value, const std::string& indent) {
    if (!value.is_structured()) return value.dump();
    if (value.is_array() && (value.empty() || !value[0].is_structured())) return row_text(value);
    const bool object = value.is_object();
    std::string out = object ? "{\n" : "[\n";
    std::size_t i = 0;
    for (auto& [key, item] : value.items()) {
        out += indent + "  " + (object ? Json(key).dump() + ": " : "") + laid_out(item, indent + "  ");
        out += ++i < value.size() ? ",\n" : "\n";
    }
    return out + indent + (object ? "}" : "]");
}

// The files export writes: OUT, config.json and OUT.case.json beside it, and with `npy` a folder
// OUT_npy/ of one .npy a tensor.
std::vector<std::filesystem::path> export_files(const std::filesystem::path& out, bool npy) {
    const std::filesystem::path folder = out.parent_path().empty() ? "." : out.parent_path();
    std::filesystem::path case_out = out;
    case_out.replace_extension(".case.json");
    std::vector<std::filesystem::path> files = {out, folder / "config.json", case_out};
    if (npy) files.push_back(folder / (out.stem().string() + "_npy"));
    return files;
}

// Nothing is overwritten unless asked: every file export would write is checked before any is.
void refuse_overwrite(const std::vector<std::filesystem::path>& files) {
    for (const auto& file : files)
        if (std::filesystem::exists(file))
            throw InputFileError(file.string() + ": already exists; give --force to overwrite it (export writes " +
                                 std::to_string(files.size()) + " files: " + [&] {
                                     std::string names;
                                     for (const auto& f : files) names += (names.empty() ? "" : ", ") + f.string();
                                     return names;
                                 }() + ")");
}

}  // namespace

std::string laid_out_json(const Json& value) { return laid_out(value, ""); }

Json inline_tensor_files(Json json, const std::filesystem::path& case_file) {
    if (!json.is_object()) return json;
    const std::filesystem::path folder = case_file.parent_path();
    if (json.contains("weights") && json["weights"].is_string())
        json["weights"] = weights_from(folder / json["weights"].get<std::string>(), json.value("config", Json()));
    if (json.contains("input") && json["input"].is_string())
        json["input"] = input_from(folder / json["input"].get<std::string>());
    return json;
}

std::vector<std::filesystem::path> export_case(const std::filesystem::path& case_file, const std::filesystem::path& out,
                                               const ExportOptions& options) {
    const Json json = inline_tensor_files(read_json_exact(case_file), case_file);
    const BlockCase<double> bc = read_block_case<double>(json, case_file.string());
    const BlockConfig<double>& c = bc.config;
    if (!c.pre_norm) throw InputFileError(case_file.string() + ": config.pre_norm: Hugging Face's LLaMA layer is pre-norm");
    if (!bc.cached.positions.empty())
        throw InputFileError(case_file.string() + ": cached: export writes the weights and input only; drop the cache");
    const std::vector<std::filesystem::path> files = export_files(out, options.npy);
    if (!options.force) refuse_overwrite(files);
    const bool permute = c.rope_layout == RopeLayout::interleaved;
    const BlockWeights<double>& w = bc.weights;
    auto vec = [](const Vector<double>& v) { return Tensor{DType::float64, {v.size()}, v}; };
    NamedTensors tensors = {
        {"input_layernorm.weight", vec(w.attn_norm)},
        {"self_attn.q_proj.weight", hf_weight(w.q, permute, c.head_dim)},
        {"self_attn.k_proj.weight", hf_weight(w.k, permute, c.head_dim)},
        {"self_attn.v_proj.weight", hf_weight(w.v, false, 0)},
        {"self_attn.o_proj.weight", hf_weight(w.o, false, 0)},
        {"post_attention_layernorm.weight", vec(w.ffn_norm)},
        {"mlp.gate_proj.weight", hf_weight(w.gate, false, 0)},
        {"mlp.up_proj.weight", hf_weight(w.up, false, 0)},
        {"mlp.down_proj.weight", hf_weight(w.down, false, 0)},
    };
    Tensor input = tensor_of(bc.input, false);
    input.shape.insert(input.shape.begin(), 1);
    tensors.emplace_back("input", input);
    write_safetensors(out, tensors, {{"format", "pt"}, {"source", case_file.filename().string()}});

    const long start = bc.start_position;
    write_json_file(files[1], hf_config_json(c, json["config"], start + long(bc.input.rows)));
    // The case as Hugging Face computes it: the permuted rows read as they are, in half layout, so
    // an HF port's Q/K stages match it (and the original with compare --layout half).
    Json config = json["config"];
    config["rope_layout"] = "half";
    write_json_file(files[2], {{"config", config}, {"weights", out.filename().string()}, {"start_position", start},
                               {"input", out.filename().string()}});
    if (options.npy) {
        std::filesystem::create_directories(files[3]);
        for (const auto& [name, t] : tensors) write_npy(files[3] / (name + ".npy"), t);
    }
    return files;
}

}  // namespace blockcheck
