// `blockcheck rope CONFIG.json`: the RoPE a Hugging Face configuration asks for, at 50 digits and
// at a chosen dtype (inv_freq per pair, the attention factor, cos and sin at some positions); with
// --compare, an engineer's dump of any of those graded against it, and the RoPE-scaling porting
// mistake that explains a difference named.
#include "checker/block/hf_config.hpp"
#include "checker/block/rope_check.hpp"
#include "checker/common/cli.hpp"
#include "checker/exercise/mistake_catalogue.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

struct RopeOptions {
    std::string config_file, positions, compare_file, name;
    std::string dtype = "float32";
    bool json = false;
};

// "0,4095,8191": whole numbers, increasing.
std::vector<long> rope_positions_option(const std::string& text) {
    std::vector<long> positions;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, end - start);
        long p = -1;
        auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), p);
        if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || p < 0 || p > max_case_position)
            throw InputFileError(fmt::format("--positions: '{}' is not a position (a whole number from 0 to {})", item,
                                             max_case_position));
        if (!positions.empty() && p <= positions.back())
            throw InputFileError(fmt::format("--positions: {} does not follow {}; positions must increase", p, positions.back()));
        positions.push_back(p);
        start = end + 1;
    }
    return positions;
}

// The dump's tensors that RoPE grades: a .npy named by --name or its stem, or the known names of
// a .safetensors (only --name's when given).
NamedTensors rope_dump(const std::string& file, const std::string& name, std::vector<std::string>& ignored) {
    const std::filesystem::path path(file);
    if (!name.empty() && !rope_tensor_name(name))
        throw InputFileError("--name: expected inv_freq, cos, sin or attention_factor, found " + name);
    NamedTensors found;
    if (path.extension() == ".npy") {
        const std::string n = name.empty() ? path.stem().string() : name;
        if (!rope_tensor_name(n))
            throw InputFileError(fmt::format("{}: a .npy holds one tensor: name it inv_freq, cos, sin or attention_factor "
                                             "with --name (the file's stem '{}' is none of them)",
                                             file, n));
        found.emplace_back(n, read_npy(path));
        return found;
    }
    if (path.extension() != ".safetensors")
        throw InputFileError(file + ": expected a .npy or .safetensors file");
    for (auto& [n, tensor] : read_safetensors(path)) {
        if ((name.empty() && rope_tensor_name(n)) || n == name) found.emplace_back(n, std::move(tensor));
        else ignored.push_back(n);
    }
    if (!name.empty() && found.empty()) throw InputFileError(file + ": no tensor named " + name);
    if (found.empty()) throw InputFileError(file + ": no tensor named inv_freq, cos, sin or attention_factor");
    return found;
}

// Rows of a dumped cos or sin (leading axes of size 1 dropped), or 0 when the dump has neither.
std::size_t rope_dump_rows(const NamedTensors& dump) {
    for (const auto& [name, t] : dump)
        if (name == "cos" || name == "sin") {
            std::vector<std::size_t> shape = t.shape;
            while (shape.size() > 2 && shape.front() == 1) shape.erase(shape.begin());
            return shape.size() == 2 ? shape[0] : 1;
        }
    return 0;
}

// --positions, else a dumped cos's rows 0 .. R-1, else the configuration's telling positions.
std::vector<long> rope_chosen_positions(const RopeOptions& o, const RopeConfig<Mpfr50>& config, const NamedTensors& dump) {
    if (!o.positions.empty()) return rope_positions_option(o.positions);
    if (const std::size_t rows = rope_dump_rows(dump)) {
        if (rows > (std::size_t(1) << 20)) throw InputFileError(fmt::format("{}: {} positions; give --positions", o.compare_file, rows));
        std::vector<long> all(rows);
        for (std::size_t r = 0; r < rows; ++r) all[r] = static_cast<long>(r);
        return all;
    }
    if (config.longest_context() == 0)
        throw InputFileError(o.config_file + ": config.max_position_embeddings: missing, so the context is unknown; "
                                             "give --positions");
    return config.default_positions();
}

const char* rope_type_name(RopeScalingType type) {
    switch (type) {
        case RopeScalingType::none: return "default";
        case RopeScalingType::linear: return "linear";
        case RopeScalingType::ntk: return "ntk";
        case RopeScalingType::dynamic: return "dynamic";
        case RopeScalingType::yarn: return "yarn";
        case RopeScalingType::longrope: return "longrope";
        case RopeScalingType::llama3: return "llama3";
    }
    return "?";
}

// The scaling's figures, by the config's field names.
Json rope_scaling_json(const RopeScaling<Mpfr50>& s) {
    Json j = {{"rope_type", rope_type_name(s.type)}};
    if (s.type == RopeScalingType::none) return j;
    j["factor"] = to_decimal(s.factor, 20);
    if (s.original_context) j["original_max_position_embeddings"] = s.original_context;
    if (s.type == RopeScalingType::llama3) {
        j["low_freq_factor"] = to_decimal(s.low_freq_factor, 20);
        j["high_freq_factor"] = to_decimal(s.high_freq_factor, 20);
    }
    if (s.type == RopeScalingType::yarn) {
        j["beta_fast"] = to_decimal(s.beta_fast, 20);
        j["beta_slow"] = to_decimal(s.beta_slow, 20);
        j["truncate"] = s.truncate;
    }
    return j;
}

std::string rope_scaling_text(const RopeScaling<Mpfr50>& s) {
    std::string text;
    const Json fields = rope_scaling_json(s);
    for (const auto& [key, value] : fields.items())
        text += (text.empty() ? "" : ", ") + key + " " + (value.is_string() ? value.get<std::string>() : value.dump());
    return text;
}

// A value at 50 digits and rounded to the dtype.
Json rope_value_json(const Mpfr50& x, DType dtype) {
    return {{"exact", to_decimal(x, 50)}, {"dtype", round_to(x.convert_to<double>(), dtype)}};
}

std::string rope_in_dtype(const Mpfr50& x, DType dtype) {
    const int digits = dtype == DType::float64 ? 17 : dtype == DType::float32 ? 9 : dtype == DType::float16 ? 5 : 4;
    return fmt::format("{:.{}g}", round_to(x.convert_to<double>(), dtype), digits);
}

int rope_print_values(const RopeOptions& o, const RopeConfig<Mpfr50>& c, const RopeTensors& t, DType dtype, Lang lang) {
    if (o.json) {
        Json j = {{"config", o.config_file}, {"dtype", dtype_name(dtype)}, {"rope_theta", to_decimal(c.theta, 20)},
                  {"head_dim", c.head_dim}, {"rotary_dim", c.rotary_dim}, {"max_position_embeddings", c.max_position_embeddings},
                  {"rope_scaling", rope_scaling_json(c.scaling)}, {"positions", t.positions},
                  {"sequence_length", t.sequence_length}, {"attention_factor", rope_value_json(t.attention_factor, dtype)}};
        j["inv_freq"] = Json::array();
        for (const Mpfr50& f : t.inv_freq) j["inv_freq"].push_back(rope_value_json(f, dtype));
        for (const char* name : {"cos", "sin"}) {
            const Matrix<Mpfr50>& m = std::string(name) == "cos" ? t.cos : t.sin;
            j[name] = Json::array();
            for (std::size_t r = 0; r < m.rows; ++r) {
                Json row = {{"position", t.positions[r]}, {"values", Json::array()}};
                for (const Mpfr50& x : m.row(r)) row["values"].push_back(rope_value_json(x, dtype));
                j[name].push_back(row);
            }
        }
        j["notes"] = Json::array();
        for (const Text& n : c.notes) j["notes"].push_back(n.in(lang));
        fmt::print("{}\n", j.dump(2));
        return 0;
    }
    fmt::print("{}\n", tr_format(lang, "RoPE of {file} (50 digits, and {dtype})", "{file} 的 RoPE（50 位精度，以及 {dtype}）",
                                 fmt::arg("file", o.config_file), fmt::arg("dtype", dtype_name(dtype))));
    fmt::print("  rope_theta {}, head_dim {}, rotary_dim {}, max_position_embeddings {}\n", to_decimal(c.theta, 20),
               c.head_dim, c.rotary_dim, c.max_position_embeddings);
    fmt::print("  rope_scaling: {}\n", rope_scaling_text(c.scaling));
    for (const Text& n : c.notes) fmt::print("  {}\n", n.in(lang));
    fmt::print("{}\n", tr_format(lang, "  sequence length {n} (the largest position + 1; dynamic NTK and LongRoPE depend on it)",
                                 "  序列长度 {n}（最大位置 + 1；dynamic NTK 与 LongRoPE 依赖于它）", fmt::arg("n", t.sequence_length)));
    fmt::print("\n{:<18}{}  ({}: {})\n", tr(lang, "attention factor", "注意力因子"), to_decimal(t.attention_factor, 50),
               dtype_name(dtype), rope_in_dtype(t.attention_factor, dtype));
    fmt::print("\n{}\n  {:>5}  {:<58}{}\n", tr(lang, "inv_freq per pair (radians per position):", "每对坐标的 inv_freq（每个位置的弧度）："),
               tr(lang, "pair", "对"), "50 digits", dtype_name(dtype));
    for (std::size_t i = 0; i < t.inv_freq.size(); ++i)
        fmt::print("  {:>5}  {:<58}{}\n", i, to_decimal(t.inv_freq[i], 50), rope_in_dtype(t.inv_freq[i], dtype));
    for (std::size_t r = 0; r < t.positions.size(); ++r) {
        fmt::print("\n{}\n  {:>5}  {:<58}{:<16}{:<58}{}\n",
                   tr_format(lang, "cos and sin at position {p}:", "位置 {p} 的 cos 与 sin：", fmt::arg("p", t.positions[r])),
                   tr(lang, "pair", "对"), "cos", dtype_name(dtype), "sin", dtype_name(dtype));
        for (std::size_t i = 0; i < t.inv_freq.size(); ++i)
            fmt::print("  {:>5}  {:<58}{:<16}{:<58}{}\n", i, to_decimal(t.cos(r, i), 50), rope_in_dtype(t.cos(r, i), dtype),
                       to_decimal(t.sin(r, i), 50), rope_in_dtype(t.sin(r, i), dtype));
    }
    return 0;
}

Json rope_grade_json(const RopeGrade& g, DType dtype) {
    Json j = {{"name", g.name}, {"elements", g.elements}, {"max_abs_error", g.max_abs},
              {"normwise_rel_error", g.normwise}, {"normwise_rel_error_eps", g.normwise / epsilon(dtype)},
              {"worst_tolerance_use", g.worst_use}, {"worst_at", g.worst_at}, {"worst_given", g.worst_given},
              {"worst_reference", g.worst_reference}, {"outside_tolerance", g.outside}, {"nonfinite", g.nonfinite},
              {"within_tolerance", g.within()}};
    if (!g.layout.empty()) j["layout"] = g.layout;
    return j;
}

int rope_print_verdict(const RopeOptions& o, const std::vector<long>& positions, const RopeVerdict& v, DType dtype,
                       const std::vector<std::string>& ignored, Lang lang) {
    const int status = v.within ? 0 : 1;
    if (o.json) {
        Json j = {{"config", o.config_file}, {"dump", o.compare_file}, {"dtype", dtype_name(dtype)}, {"positions", positions},
                  {"tensors", Json::array()}, {"within", v.within}, {"mistakes", Json::array()}, {"not_visible", Json::array()},
                  {"ignored", ignored}};
        for (const RopeGrade& g : v.grades) j["tensors"].push_back(rope_grade_json(g, dtype));
        for (const std::string& id : v.named)
            j["mistakes"].push_back({{"id", id}, {"changes", find_mistake(id)->changes.in(lang)},
                                     {"message", find_mistake(id)->message.in(lang)}});
        for (const std::string& id : v.not_visible)
            j["not_visible"].push_back({{"id", id}, {"shown_by", rope_mistake_shown_by(id).in(lang)}});
        fmt::print("{}\n", j.dump(2));
        return status;
    }
    fmt::print("{}\n", tr_format(lang, "{dump} against the RoPE of {config} at 50 digits ({dtype}), positions {p}",
                                 "{dump} 对照 {config} 的 50 位精度 RoPE（{dtype}），位置 {p}", fmt::arg("dump", o.compare_file),
                                 fmt::arg("config", o.config_file), fmt::arg("dtype", dtype_name(dtype)),
                                 fmt::arg("p", fmt::join(positions.size() > 8 ? std::vector<long>{positions.front(), positions.back()}
                                                                             : positions,
                                                         positions.size() > 8 ? " .. " : ", "))));
    if (!ignored.empty()) fmt::print("  {} {}\n", tr(lang, "ignored:", "已忽略："), fmt::join(ignored, ", "));
    fmt::print("  {:<18} {:>9} {:>12} {:>12} {:>12}  {}\n", tr(lang, "tensor", "张量"), tr(lang, "elements", "元素"),
               "max|err|", "eps", tr(lang, "tol. use", "容差占用"), tr(lang, "worst at", "最差位置"));
    for (const RopeGrade& g : v.grades)
        fmt::print("  {:<18} {:>9} {:>12.3e} {:>12.3g} {:>12.3g}  {} ({} {:.9g}, {} {:.9g})  {}\n",
                   g.name + (g.layout.empty() ? "" : " (" + g.layout + ")"), g.elements, g.max_abs, g.normwise / epsilon(dtype),
                   g.worst_use, g.worst_at, tr(lang, "given", "提交值"), g.worst_given, tr(lang, "reference", "参考值"),
                   g.worst_reference, g.within() ? tr(lang, "ok", "通过") : tr(lang, "OUTSIDE", "超出"));
    fmt::print("{}\n", v.within ? tr(lang, "every tensor is within its tolerance", "每个张量都在容差之内")
                                : tr(lang, "outside the tolerance", "超出容差"));
    // the dump is outside the tolerance and within it of the reference made with each named change
    if (v.named.size() > 1)
        fmt::print("{}\n", tr(lang, "each of these explains the tensors equally well (a tie, none preferred):",
                               "以下每一项都同样能解释这些张量（并列，不偏向任何一项）："));
    for (const std::string& id : v.named)
        fmt::print("{}\n", tr_format(lang, "your tensors are what the reference gives with {changes}: {message}",
                                     "你的张量正是参考实现在“{changes}”时给出的值：{message}",
                                     fmt::arg("changes", find_mistake(id)->changes.in(lang)),
                                     fmt::arg("message", find_mistake(id)->message.in(lang))));
    if (!v.within && v.named.empty())
        fmt::print("{}\n", tr(lang, "no known RoPE-scaling mistake explains it", "已知的 RoPE 缩放错误都无法解释该差异"));
    if (!v.not_visible.empty())
        fmt::print("{}\n", tr(lang, "not visible with these tensors and positions:", "以下错误在这些张量和位置上不可见："));
    for (const std::string& id : v.not_visible)
        fmt::print("  {} ({}): {} {}\n", id, find_mistake(id)->changes.in(lang), tr(lang, "shown by", "需要"),
                   rope_mistake_shown_by(id).in(lang));
    return status;
}

int rope_command(const RopeOptions& o, Lang lang) {
    const DType dtype = dtype_named(o.dtype);
    const RopeConfig<Mpfr50> config = read_hf_rope_file<Mpfr50>(o.config_file);
    std::vector<std::string> ignored;
    const NamedTensors dump = o.compare_file.empty() ? NamedTensors{} : rope_dump(o.compare_file, o.name, ignored);
    const std::vector<long> positions = rope_chosen_positions(o, config, dump);
    if (o.compare_file.empty()) return rope_print_values(o, config, rope_tensors(config, positions), dtype, lang);
    std::vector<RopeGiven> given;
    for (const auto& [name, tensor] : dump)
        given.push_back(rope_given(name, tensor, o.compare_file, positions.size(), config.rotary_dim / 2));
    return rope_print_verdict(o, positions, judge_rope_dump(given, config, positions, dtype), dtype, ignored, lang);
}

}  // namespace

void add_rope_command(CLI::App& app, Context& context) {
    auto options = std::make_shared<RopeOptions>();
    CLI::App* cmd = app.add_subcommand(
        "rope", "the RoPE a Hugging Face config.json asks for (inv_freq, attention factor, cos/sin), or grade a dump of it");
    cmd->add_option("config", options->config_file, "Hugging Face config.json")->required();
    cmd->add_option("--positions", options->positions,
                    "positions, increasing: 0,4095,8191 (default: 0, the original context's edges, the longest context; "
                    "with --compare, a dumped cos/sin's rows 0 .. R-1)");
    cmd->add_option("--dtype", options->dtype, "the floating-point type to round to, and of a dump to grade")
        ->check(CLI::IsMember({"float64", "float32", "bfloat16", "float16"}))
        ->capture_default_str();
    cmd->add_option("--compare", options->compare_file,
                    "grade a dump (.npy or .safetensors) of inv_freq, cos, sin or attention_factor and name the mistake");
    cmd->add_option("--name", options->name, "the tensor a .npy holds (default: the file's stem), or the one to grade");
    cmd->add_flag("--json", options->json, "print every figure as JSON");
    cmd->callback([&context, options] { context.run = [&context, options] { return rope_command(*options, context.lang); }; });
}

}  // namespace blockcheck
