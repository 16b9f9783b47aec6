// `blockcheck forward CASE.json`: the full block on a block case, as JSON.
#include "checker/block/block_case_files.hpp"
#include "checker/block/tensor_files.hpp"
#include "checker/common/cli.hpp"
#include "checker/common/files.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace blockcheck {
namespace {

struct ForwardOptions {
    std::string case_file;
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

template <class T>
int forward_at(const ForwardOptions& options) {
    const BlockCase<T> bc = read_case_file<T>(options.case_file);
    const int digits = options.digits > 0 ? options.digits : decimal_digits<T>();
    Trace<T> trace;
    Matrix<T> y;
    try {
        y = block_case_forward(bc, options.trace ? &trace : nullptr);
    } catch (const UndefinedNorm& e) {
        throw InputFileError(options.case_file + ": " + e.what() + " (config.rms_norm_eps is 0)");
    }
    if (!options.out.empty() && !options.out.ends_with(".json")) {
        write_tensors(options, y, trace);
        return 0;
    }
    Json doc = {{"output", rows_json(y, digits)}};
    if (options.trace) {
        doc["trace"] = Json::object();
        for (const auto& [name, value] : trace) doc["trace"][name] = rows_json(value, digits);
    }
    const std::string out = laid_out_json(doc) + "\n";
    if (options.out.empty()) fmt::print("{}", out);
    else write_named_file(options.out, out);
    return 0;
}

}  // namespace

void add_forward_command(CLI::App& app, Context& context) {
    auto options = std::make_shared<ForwardOptions>();
    CLI::App* cmd = app.add_subcommand("forward", "run the full block on a block case and print its output as JSON");
    cmd->add_option("case", options->case_file, "block case file (JSON)")->required();
    cmd->add_option("--precision", options->precision, "double, 50 or 100 significant digits")
        ->check(CLI::IsMember({"double", "50", "100"}))
        ->capture_default_str();
    cmd->add_option("--digits", options->digits, "significant digits to print (default: all the precision carries)")
        ->check(CLI::Range(1, 100));
    cmd->add_option("--out", options->out, "write the output to FILE (.json, .npy or .safetensors) instead of stdout");
    cmd->add_option("--out-dtype", options->out_dtype, "element type of a .npy or .safetensors output")
        ->check(CLI::IsMember({"float64", "float32", "bfloat16"}))
        ->capture_default_str();
    cmd->add_flag("--trace", options->trace, "also print every intermediate value (N, Q, K, V, ..., attention_weights/h, ..., output)");
    cmd->callback([&context, options] {
        context.run = [options] {
            if (options->precision == "double") return forward_at<double>(*options);
            if (options->precision == "100") return forward_at<Mpfr100>(*options);
            return forward_at<Mpfr50>(*options);
        };
    });
}

}  // namespace blockcheck
