// `blockcheck compare CASE.json OUTPUT.json`: another implementation's block output against
// the 50-digit reference, with its errors in absolute, relative and epsilon units.
#include "checker/block/block_case.hpp"
#include "checker/common/cli.hpp"

#include <fmt/format.h>

#include <cmath>

namespace blockcheck {
namespace {

struct CompareOptions {
    std::string case_file, output_file;
    double rtol = 1e-5, atol = 1e-8;
    bool json = false;
};

struct Worst {
    double error = -1;
    std::size_t row = 0, col = 0;
};

// The "output" rows of OUTPUT.json, shaped like the reference.
Matrix<Real50> read_output(const std::string& file, std::size_t rows, std::size_t cols) {
    const auto json = read_json_exact(file);
    if (!json.is_object() || !json.contains("output"))
        throw InputFileError(file + ": expected an object with an \"output\" field");
    const auto& out = json["output"];
    if (!out.is_array() || out.size() != rows)
        throw InputFileError(fmt::format("{}: output: expected {} rows of {} numbers, found {}", file, rows, cols,
                                         out.is_array() ? std::to_string(out.size()) + " rows" : out.type_name()));
    Matrix<Real50> m(rows, cols);
    for (std::size_t r = 0; r < rows; ++r) {
        if (!out[r].is_array() || out[r].size() != cols)
            throw InputFileError(fmt::format("{}: output[{}]: expected {} numbers", file, r, cols));
        for (std::size_t c = 0; c < cols; ++c) {
            const std::string where = fmt::format("{}: output[{}][{}]", file, r, c);
            m(r, c) = parse_real<Real50>(decimal_text(out[r][c], where));
        }
    }
    return m;
}

int compare(const CompareOptions& o, Lang lang) {
    const BlockCase<Real50> bc = read_block_case<Real50>(read_json_exact(o.case_file), o.case_file);
    const Matrix<Real50> reference = block_forward(bc.config, bc.weights, bc.input, bc.start_position);
    const Matrix<Real50> given = read_output(o.output_file, reference.rows, reference.cols);

    using std::abs;
    double sum_abs = 0, sum_rel = 0;
    std::size_t rel_count = 0, outside = 0;
    Worst worst_abs, worst_rel, worst_allowance;
    for (std::size_t r = 0; r < reference.rows; ++r)
        for (std::size_t c = 0; c < reference.cols; ++c) {
            const Real50 err = abs(given(r, c) - reference(r, c));
            const double e = err.convert_to<double>(), ref = abs(reference(r, c)).convert_to<double>();
            sum_abs += e;
            if (e > worst_abs.error) worst_abs = {e, r, c};
            if (ref > 0) {
                const double rel = e / ref;
                sum_rel += rel, ++rel_count;
                if (rel > worst_rel.error) worst_rel = {rel, r, c};
            }
            // numpy.allclose: |given - ref| <= atol + rtol |ref|
            const double allowance = e / (o.atol + o.rtol * ref);
            if (allowance > 1) ++outside;
            if (allowance > worst_allowance.error) worst_allowance = {allowance, r, c};
        }
    const double n = double(reference.rows * reference.cols);
    const double f32 = std::ldexp(1.0, -23), f64 = std::ldexp(1.0, -52);
    const double mean_rel = rel_count ? sum_rel / double(rel_count) : 0.0;
    const bool within = outside == 0;
    auto at = [&](const Worst& w) {
        return fmt::format("output[{}][{}] (given {}, reference {})", w.row, w.col, to_decimal(given(w.row, w.col), 17),
                           to_decimal(reference(w.row, w.col), 20));
    };
    if (o.json) {
        nlohmann::ordered_json j = {
            {"elements", reference.rows * reference.cols},
            {"max_abs_error", worst_abs.error},
            {"mean_abs_error", sum_abs / n},
            {"max_rel_error", std::max(worst_rel.error, 0.0)},
            {"mean_rel_error", mean_rel},
            {"worst", {{"row", worst_abs.row}, {"col", worst_abs.col}}},
            {"max_rel_error_float32_eps", std::max(worst_rel.error, 0.0) / f32},
            {"max_rel_error_double_eps", std::max(worst_rel.error, 0.0) / f64},
            {"rtol", o.rtol},
            {"atol", o.atol},
            {"outside_tolerance", outside},
            {"within_tolerance", within}};
        fmt::print("{}\n", j.dump(2));
        return within ? 0 : 1;
    }
    fmt::print("{} {}\n", tr(lang, "compared with the 50-digit reference of", "对照 50 位精度参考值："), o.case_file);
    fmt::print("  {:<18}{} ({} x {})\n", tr(lang, "elements", "元素个数"), reference.rows * reference.cols,
               reference.rows, reference.cols);
    fmt::print("  {:<18}{:.3e}  {} {}\n", tr(lang, "max abs error", "最大绝对误差"), worst_abs.error, tr(lang, "at", "位于"),
               at(worst_abs));
    fmt::print("  {:<18}{:.3e}\n", tr(lang, "mean abs error", "平均绝对误差"), sum_abs / n);
    if (rel_count) {
        fmt::print("  {:<18}{:.3e}  {} {}\n", tr(lang, "max rel error", "最大相对误差"), worst_rel.error,
                   tr(lang, "at", "位于"), at(worst_rel));
        fmt::print("  {:<18}{:.3e}\n", tr(lang, "mean rel error", "平均相对误差"), mean_rel);
        fmt::print("  {:<18}max {:.3g}, mean {:.3g}  (2^-23)\n", tr(lang, "in float32 eps", "以 float32 eps 计"),
                   worst_rel.error / f32, mean_rel / f32);
        fmt::print("  {:<18}max {:.3g}, mean {:.3g}  (2^-52)\n", tr(lang, "in double eps", "以 double eps 计"),
                   worst_rel.error / f64, mean_rel / f64);
    }
    fmt::print("  {:<18}|err| <= {} + {} |ref|: {}\n", tr(lang, "tolerance", "容差"), o.atol, o.rtol,
               within ? fmt::format("{} ({} {:.2g}%)", tr(lang, "within", "通过"),
                                    tr(lang, "worst element uses", "最差元素占用容差"), 100 * worst_allowance.error)
                      : fmt::format("{} {} {}, {} {}", outside, tr(lang, "elements outside; worst", "个元素超出；最差"),
                                    at(worst_allowance), tr(lang, "at", "为容差的"),
                                    fmt::format("{:.3g}x", worst_allowance.error)));
    return within ? 0 : 1;
}

}  // namespace

void add_compare_command(CLI::App& app, Context& context) {
    auto options = std::make_shared<CompareOptions>();
    CLI::App* cmd = app.add_subcommand(
        "compare", "grade another implementation's block output against the 50-digit reference");
    cmd->add_option("case", options->case_file, "block case file (JSON)")->required();
    cmd->add_option("output", options->output_file, "the other implementation's output: {\"output\": [[...]]}")
        ->required();
    cmd->add_option("--rtol", options->rtol, "relative tolerance (as numpy.allclose)")->capture_default_str();
    cmd->add_option("--atol", options->atol, "absolute tolerance (as numpy.allclose)")->capture_default_str();
    cmd->add_flag("--json", options->json, "print the figures as JSON");
    cmd->callback([&context, options] { context.run = [&context, options] { return compare(*options, context.lang); }; });
}

}  // namespace blockcheck
