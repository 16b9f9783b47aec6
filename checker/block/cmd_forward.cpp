// `blockcheck forward CASE.json` (or `--model DIR --layer N --input HIDDEN`): the full block on a
// block case or on one layer of a checkpoint folder, as JSON, .npy or .safetensors.
#include "checker/block/block_case_files.hpp"
#include "checker/block/tensor_files.hpp"
#include "checker/common/cli.hpp"
#include "checker/common/files.hpp"
#include "checker/block/layer_run.hpp"
#include "solutions/block/double_double.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace blockcheck {
namespace {

struct ForwardOptions {
    std::string case_file;
    std::string model;              // a checkpoint folder instead of a case
    std::size_t layer = 0;
    LayerInput input;
    std::string precision = "50";
    int digits = 0;  // 0: all the precision carries
    bool trace = false;
    std::string out;                // .json, .npy or .safetensors; empty: JSON on stdout
    std::string out_dtype = "float64";
};

using Json = nlohmann::ordered_json;

// A matrix as JSON rows of decimal strings: the strings keep every digit the precision carries.
template <class T>
Json rows_json(const Matrix<T>& m, int digits) {
    Json rows = Json::array();
    for (std::size_t r = 0; r < m.rows; ++r) {
        Json row = Json::array();
        for (std::size_t c = 0; c < m.cols; ++c) row.push_back(to_decimal(m(r, c), digits));
        rows.push_back(std::move(row));
    }
    return rows;
}

template <class T>
Tensor tensor_of(const Matrix<T>& m, DType dtype) {
    Tensor t{dtype, {m.rows, m.cols}, {}};
    for (const T& x : m.values) t.values.push_back(static_cast<double>(x));
    return t;
}

// The output (and with --trace every intermediate) as .npy or .safetensors.
template <class T>
void write_tensors(const ForwardOptions& options, const Matrix<T>& y, const Trace<T>& trace) {
    const DType dtype = dtype_named(options.out_dtype);
    if (options.out.ends_with(".npy")) {
        if (options.trace) throw InputFileError(options.out + ": a .npy file holds one array; use .safetensors for --trace");
        write_npy(options.out, tensor_of(y, dtype));
    } else if (options.out.ends_with(".safetensors")) {
        NamedTensors tensors = {{"output", tensor_of(y, dtype)}};
        for (auto& [name, m] : trace)
            if (name != "output") tensors.emplace_back(name, tensor_of(m, dtype));
        write_safetensors(options.out, tensors);
    } else {
        throw InputFileError(options.out + ": --out takes a .json, .npy or .safetensors file");
    }
}

// The digits printed by default: all the precision carries, or the ones dd guarantees at these
// positions.
template <class T>
ForwardOptions with_guaranteed_digits(ForwardOptions options, long largest_position) {
    if constexpr (std::is_same_v<T, DoubleDouble>)
        if (options.digits == 0) options.digits = dd_guaranteed_digits(largest_position);
    return options;
}

// The output (and with --trace every stage) where --out says, as JSON when it names none.
template <class T>
void emit(const ForwardOptions& options, const Matrix<T>& y, const Trace<T>& trace) {
    if (!options.out.empty() && !options.out.ends_with(".json")) return write_tensors(options, y, trace);
    const int digits = options.digits > 0 ? options.digits : decimal_digits<T>();
    Json doc = {{"output", rows_json(y, digits)}};
    if (options.trace) {
        doc["trace"] = Json::object();
        for (const auto& [name, value] : trace) doc["trace"][name] = rows_json(value, digits);
    }
    const std::string out = laid_out_json(doc) + "\n";
    if (options.out.empty()) fmt::print("{}", out);
    else write_named_file(options.out, out);
}

template <class T>
int forward_at(const ForwardOptions& options, Lang lang) {
    const BlockCase<T> bc = read_case_file<T>(options.case_file);
    const long largest = bc.start_position + static_cast<long>(bc.input.rows) - 1;
    fmt::print(stderr, "forward: {}\n", precision_statement(options.precision, largest, lang));
    Trace<T> trace;
    Matrix<T> y;
    try {
        y = block_case_forward(bc, options.trace ? &trace : nullptr);
    } catch (const UndefinedNorm& e) {
        throw InputFileError(options.case_file + ": " + e.what() + " (config.rms_norm_eps is 0)");
    }
    emit(with_guaranteed_digits<T>(options, largest), y, trace);
    return 0;
}

template <class T>
int forward_model_at(const ForwardOptions& options, Lang lang) {
    ModelFolder folder(options.model);
    const BlockConfig<double> shape = folder.hf_config<double>().block;
    const LayerRows rows = read_layer_rows(options.input, shape);
    double multiply_adds = 0;
    for (const auto& [stage, count] : stage_multiply_adds(shape, rows.input.rows)) multiply_adds += count;
    const long largest = rows.positions.back();
    say_layer_family(folder, options.layer, "forward", lang);
    fmt::print(stderr, "forward: {}\n", precision_statement(options.precision, largest, lang));
    warn_if_slow_mpfr(multiply_adds, options.precision, lang);
    LayerRun<T> run = run_model_layer<T>(folder, options.layer, options.input, "forward");
    emit(with_guaranteed_digits<T>(options, largest), run.output, run.trace);
    return 0;
}

template <class T>
int forward_either(const ForwardOptions& options, Lang lang) {
    return options.model.empty() ? forward_at<T>(options, lang) : forward_model_at<T>(options, lang);
}

}  // namespace

void add_forward_command(CLI::App& app, Context& context) {
    auto options = std::make_shared<ForwardOptions>();
    CLI::App* cmd = app.add_subcommand("forward", "run the full block on a block case and print its output as JSON");
    CLI::Option* case_option = cmd->add_option("case", options->case_file, "block case file (JSON)");
    CLI::Option* model = cmd->add_option("--model", options->model,
                                         "a Hugging Face checkpoint folder (config.json, safetensors, their index)");
    model->excludes(case_option);
    cmd->add_option("--layer", options->layer, "the decoder layer of --model to run (model.layers.N)")->needs(model);
    add_layer_input_options(*cmd, options->input, model);
    cmd->add_option("--precision", options->precision,
                    "double, dd (double-double, 30 digits guaranteed, fast), 50 or 100 significant digits")
        ->check(CLI::IsMember({"double", "dd", "50", "100"}))
        ->capture_default_str();
    cmd->add_option("--digits", options->digits, "significant digits to print (default: all the precision carries)")
        ->check(CLI::Range(1, 100));
    cmd->add_option("--out", options->out, "write the output to FILE (.json, .npy or .safetensors) instead of stdout");
    cmd->add_option("--out-dtype", options->out_dtype, "element type of a .npy or .safetensors output")
        ->check(CLI::IsMember({"float64", "float32", "bfloat16"}))
        ->capture_default_str();
    cmd->add_flag("--trace", options->trace, "also print every intermediate value (N, Q, K, V, ..., attention_weights/h, ..., output)");
    cmd->callback([&context, options] {
        if (options->case_file.empty() && options->model.empty())
            throw CLI::ValidationError("forward", "give a block case, or --model DIR --layer N --input HIDDEN");
        if (!options->model.empty() && options->input.hidden_states.empty())
            throw CLI::ValidationError("--input", "--model needs --input HIDDEN (.npy or .safetensors)");
        context.run = [options, &context] {
            const Lang lang = context.lang;
            if (options->precision == "double") return forward_either<double>(*options, lang);
            if (options->precision == "dd") return forward_either<DoubleDouble>(*options, lang);
            if (options->precision == "100") return forward_either<Mpfr100>(*options, lang);
            return forward_either<Mpfr50>(*options, lang);
        };
    });
}

}  // namespace blockcheck
