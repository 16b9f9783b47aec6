// The properties every right value has (diagnosis.hpp: note_broken_properties): a wrong part no
// mistake explains is told which one its numbers break, never the right value.
#include "checker/exercise/diagnosis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace blockcheck {
namespace {

// The rows of a value: a vector is one row, a matrix its rows, a number a row of one.
std::vector<Vector<Real>> rows_of(const Value& v) {
    if (auto* x = std::get_if<Real>(&v)) return {{*x}};
    if (auto* vec = std::get_if<Vector<Real>>(&v)) return {*vec};
    std::vector<Vector<Real>> rows;
    if (auto* m = std::get_if<Matrix<Real>>(&v))
        for (std::size_t r = 0; r < m->rows; ++r) rows.emplace_back(m->row(r).begin(), m->row(r).end());
    return rows;
}

Real input_number(const Values& inputs, const std::string& name) {
    if (!name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) return Real(name.c_str());
    return std::get<Real>(inputs.at(name));
}

// Whether `given` has property `p` (nullopt: it cannot be judged, a shape that does not fit).
std::optional<bool> has_property(const nlohmann::ordered_json& p, const Value& given, const Values& inputs) {
    using std::abs;
    using std::sqrt;
    using std::fmod;
    const std::string kind = p.at("kind").get<std::string>();
    const std::vector<Vector<Real>> rows = rows_of(given);
    const Real close("1e-4");  // the printed digits' room (6 decimals), far below any slip
    if (kind == "pair_length_kept") {
        const std::vector<Vector<Real>> of = rows_of(inputs.at(p.at("of").get<std::string>()));
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const Vector<Real>& want = of[of.size() == 1 ? 0 : r < of.size() ? r : 0];
            if (rows[r].size() != want.size() || want.size() % 2 != 0) return std::nullopt;
            for (std::size_t i = 0; i + 1 < want.size(); i += 2) {
                const Real a = sqrt(rows[r][i] * rows[r][i] + rows[r][i + 1] * rows[r][i + 1]);
                const Real b = sqrt(want[i] * want[i] + want[i + 1] * want[i + 1]);
                if (abs(a - b) > close * (Real(1) + b)) return false;
            }
        }
        return true;
    }
    if (kind == "rms_one") {
        for (const Vector<Real>& row : rows) {
            const Vector<Real> g = p.contains("gains") ? std::get<Vector<Real>>(inputs.at(p.at("gains").get<std::string>()))
                                                       : Vector<Real>(row.size(), Real(1));  // unit gains
            if (row.size() != g.size()) return std::nullopt;
            Real ms(0);
            for (std::size_t i = 0; i < row.size(); ++i) {
                if (g[i] == 0) return std::nullopt;
                ms += (row[i] / g[i]) * (row[i] / g[i]);
            }
            const Real rms = sqrt(ms / Real(static_cast<long>(row.size())));
            if (rms > Real(1) + close || rms < Real(1) - Real("1e-2")) return false;  // eps only lowers it
        }
        return true;
    }
    if (kind == "kv_bytes_multiple") {
        const Real unit = Real(2) * input_number(inputs, p.at("layers").get<std::string>()) *
                          input_number(inputs, p.at("kv_heads").get<std::string>()) *
                          input_number(inputs, p.at("head_dim").get<std::string>());
        if (rows.size() != 1 || rows[0].size() != 1 || unit == 0) return std::nullopt;
        return fmod(rows[0][0], unit) == 0;
    }
    if (kind == "group_divides") {
        if (rows.size() != 1 || rows[0].size() != 1) return std::nullopt;
        return rows[0][0] * input_number(inputs, p.at("kv_heads").get<std::string>()) ==
               input_number(inputs, p.at("query_heads").get<std::string>());
    }
    if (kind == "rows_sum_to_one") {
        for (const Vector<Real>& row : rows) {
            Real sum(0);
            for (const Real& x : row) sum += x;
            if (abs(sum - Real(1)) > close) return false;
        }
        return true;
    }
    return std::nullopt;
}

// What the property says, of `part` (the step's name): never the right value.
Text property_text(const std::string& kind, const std::string& part) {
    if (kind == "pair_length_kept")
        return {part + ": a rotation keeps each pair's length, and these pairs do not have their input's lengths",
                part + "：旋转保持每一对坐标的长度，而这些坐标对的长度与输入的不同"};
    if (kind == "rms_one")
        return {part + ": RMSNorm's output divided by its gains has RMS 1 (a little under, by epsilon), and these rows do not",
                part + "：RMSNorm 的输出除以缩放系数后 RMS 为 1（因 epsilon 略小于 1），而这些行不是"};
    if (kind == "kv_bytes_multiple")
        return {part + ": a KV cache's bytes are a multiple of 2 x layers x kv_heads x head_dim, and this number is not",
                part + "：KV 缓存的字节数是 2 × 层数 × kv_heads × head_dim 的倍数，而这个数不是"};
    if (kind == "group_divides")
        return {part + ": the heads of a group times kv_heads is query_heads, and this number does not give it",
                part + "：每组的头数乘以 kv_heads 等于 query_heads，而这个数不满足"};
    return {part + ": every softmax row sums to 1, and these rows do not", part + "：softmax 的每一行之和为 1，而这些行不是"};
}

constexpr const char* property_names[] = {"pair_length_kept", "rms_one", "kv_bytes_multiple", "group_divides", "rows_sum_to_one"};

}  // namespace

bool known_property(const std::string& kind) {
    return std::find(std::begin(property_names), std::end(property_names), kind) != std::end(property_names);
}

std::string property_kinds() {
    std::string all;
    for (const char* k : property_names) all += (all.empty() ? "" : ", ") + std::string(k);
    return all;
}

bool is_property_note(const Text& note) {
    const auto colon = note.en.find(": ");
    if (colon == std::string::npos) return false;
    const std::string part = note.en.substr(0, colon);
    return std::any_of(std::begin(property_names), std::end(property_names),
                       [&](const char* kind) { return property_text(kind, part).en == note.en; });
}

void note_broken_properties(std::vector<GivenPart>& parts, const std::map<std::string, nlohmann::ordered_json>& properties,
                            const Values& inputs) {
    for (GivenPart& p : parts) {
        auto property = properties.find(p.spec->name);
        if (property == properties.end() || !p.given || p.result->verdict != Verdict::wrong ||
            !named_diagnoses(*p.result).empty())
            continue;
        try {
            const auto holds = has_property(property->second, to_value(p.given->value), inputs);
            if (holds && !*holds)
                p.result->notes.push_back(
                    property_text(property->second.at("kind").get<std::string>(), p.spec->name));
        } catch (const std::exception&) {
            // a value or an input of another kind: the property says nothing here
        }
    }
}

}  // namespace blockcheck
