#include "checker/block/block_output.hpp"

#include "checker/block/tensor_files.hpp"
#include "checker/common/files.hpp"
#include "checker/common/json_exact.hpp"

#include <fmt/format.h>

#include <limits>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

const Matrix<Mpfr50>* find_stage(const Trace<Mpfr50>& trace, const std::string& name) {
    for (auto& [n, m] : trace)
        if (n == name) return &m;
    return nullptr;
}

std::string known_names(const Trace<Mpfr50>& reference) {
    std::string names;
    for (auto& [n, m] : reference) names += (names.empty() ? "" : ", ") + n;
    return names;
}

// One element: a number, a decimal string, or NaN / Infinity / -Infinity (also as strings,
// in any case: "nan", "inf", "-inf").
Mpfr50 element(const Json& value, const std::string& where) {
    if (value.is_string()) {
        std::string text = value.get<std::string>();
        for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        if (text == "nan" || text == "-nan") return std::numeric_limits<Mpfr50>::quiet_NaN();
        if (text == "infinity" || text == "inf" || text == "+inf" || text == "+infinity")
            return std::numeric_limits<Mpfr50>::infinity();
        if (text == "-infinity" || text == "-inf") return -std::numeric_limits<Mpfr50>::infinity();
    }
    return parse_real<Mpfr50>(decimal_text(value, where));
}

Matrix<Mpfr50> json_matrix(const Json& rows, const Matrix<Mpfr50>& shape, const std::string& where) {
    if (!rows.is_array() || rows.size() != shape.rows)
        throw InputFileError(fmt::format("{}: expected {} rows of {} numbers, found {}", where, shape.rows, shape.cols,
                                         rows.is_array() ? std::to_string(rows.size()) + " rows" : rows.type_name()));
    for (std::size_t r = 0; r < shape.rows; ++r)
        if (!rows[r].is_array() || rows[r].size() != shape.cols)
            throw InputFileError(fmt::format("{}[{}]: expected {} numbers", where, r, shape.cols));
    Matrix<Mpfr50> m(shape.rows, shape.cols);
    for (std::size_t r = 0; r < shape.rows; ++r)
        for (std::size_t c = 0; c < shape.cols; ++c) m(r, c) = element(rows[r][c], fmt::format("{}[{}][{}]", where, r, c));
    return m;
}

// A tensor of shape [T, C] or [1, T, C] (a batch of one).
Matrix<Mpfr50> tensor_matrix(const Tensor& t, const Matrix<Mpfr50>& shape, const std::string& where) {
    std::vector<std::size_t> s = t.shape;
    while (s.size() > 2 && s.front() == 1) s.erase(s.begin());
    if (s.size() != 2 || s[0] != shape.rows || s[1] != shape.cols) {
        std::string found;
        for (std::size_t e : t.shape) found += (found.empty() ? "" : ", ") + std::to_string(e);
        throw InputFileError(fmt::format("{}: expected shape [{}, {}], found [{}]", where, shape.rows, shape.cols, found));
    }
    Matrix<Mpfr50> m(shape.rows, shape.cols);
    for (std::size_t i = 0; i < t.values.size(); ++i) m.values[i] = Mpfr50(t.values[i]);  // exact: a double
    return m;
}

Trace<Mpfr50> in_reference_order(Trace<Mpfr50> given, const Trace<Mpfr50>& reference, const std::string& file) {
    if (!find_stage(given, "output")) throw InputFileError(file + ": no \"output\"");
    Trace<Mpfr50> ordered;
    for (auto& [name, m] : given)
        if (name == "output") ordered.add(name, std::move(m));
    for (auto& [name, ref] : reference)
        for (auto& [n, m] : given)
            if (n == name && name != "output") ordered.add(name, std::move(m));
    return ordered;
}

Trace<Mpfr50> read_json_output(const std::filesystem::path& file, const Trace<Mpfr50>& reference) {
    const Json json = parse_json_exact(quote_python_nonfinite(read_user_file(file, max_json_file_bytes)), file.string());
    if (!json.is_object() || !json.contains("output"))
        throw InputFileError(file.string() + ": expected an object with an \"output\" field");
    Trace<Mpfr50> given;
    auto take = [&](const Json& object, const std::string& prefix) {
        for (auto& [key, value] : object.items()) {
            if (key == "trace" && prefix.empty()) continue;
            const Matrix<Mpfr50>* ref = find_stage(reference, key);
            if (!ref)
                throw InputFileError(fmt::format("{}: {}{}: not a --trace name (expected one of {})", file.string(),
                                                 prefix, key, known_names(reference)));
            given.add(key, json_matrix(value, *ref, file.string() + ": " + prefix + key));
        }
    };
    take(json, "");
    if (json.contains("trace")) {
        if (!json["trace"].is_object()) throw InputFileError(file.string() + ": trace: expected an object");
        take(json["trace"], "trace.");
    }
    return in_reference_order(std::move(given), reference, file.string());
}

}  // namespace

std::string quote_python_nonfinite(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (in_string) {
            out += ch;
            if (ch == '\\' && i + 1 < text.size()) out += text[++i];
            else if (ch == '"') in_string = false;
            continue;
        }
        if (ch == '"') in_string = true;
        bool replaced = false;
        for (const char* token : {"-Infinity", "Infinity", "NaN"}) {
            const std::size_t n = std::char_traits<char>::length(token);
            if (text.compare(i, n, token) == 0) {
                out += '"' + std::string(token) + '"';
                i += n - 1;
                replaced = true;
                break;
            }
        }
        if (!replaced) out += ch;
    }
    return out;
}

Trace<Mpfr50> in_pair_layout(Trace<Mpfr50> given, std::size_t head_dim, RopeLayout from, RopeLayout to) {
    if (from == to) return given;
    Trace<Mpfr50> mapped;
    for (auto& [name, m] : given) {
        if (name != "Q" && name != "K" && name != "Q_rotated" && name != "K_rotated") {
            mapped.add(name, std::move(m));
            continue;
        }
        Matrix<Mpfr50> out(m.rows, m.cols);
        for (std::size_t r = 0; r < m.rows; ++r)
            for (std::size_t head = 0; head + head_dim <= m.cols; head += head_dim)
                for (std::size_t i = 0; i < head_dim / 2; ++i) {
                    const auto [a, b] = rope_pair(from, i, head_dim);
                    const auto [x, y] = rope_pair(to, i, head_dim);
                    out(r, head + x) = m(r, head + a);
                    out(r, head + y) = m(r, head + b);
                }
        mapped.add(name, std::move(out));
    }
    return mapped;
}

Trace<Mpfr50> read_block_output(const std::filesystem::path& file, const Trace<Mpfr50>& reference) {
    const std::string ext = file.extension().string();
    const std::string name = file.string();
    if (ext == ".npy") {
        const Matrix<Mpfr50>* out = find_stage(reference, "output");
        Trace<Mpfr50> given;
        given.add("output", tensor_matrix(read_npy(file), *out, name));
        return given;
    }
    if (ext == ".safetensors") {
        NamedTensors tensors = read_safetensors(file);
        if (tensors.size() == 1 && tensors.front().first != "output" && !find_stage(reference, tensors.front().first))
            tensors.front().first = "output";  // a file of one tensor holds the output
        Trace<Mpfr50> given;
        for (auto& [key, t] : tensors) {
            const Matrix<Mpfr50>* ref = find_stage(reference, key);
            if (!ref)
                throw InputFileError(fmt::format("{}: tensor \"{}\" is not a --trace name (expected one of {})", name,
                                                 key, known_names(reference)));
            given.add(key, tensor_matrix(t, *ref, name + ": " + key));
        }
        return in_reference_order(std::move(given), reference, name);
    }
    return read_json_output(file, reference);
}

}  // namespace blockcheck
