#include "checker/verify/claims.hpp"

#include "checker/common/json_exact.hpp"
#include "checker/common/json_fields.hpp"
#include "checker/exercise/protocol.hpp"
#include "checker/verify/rerun_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

// ---- reading ----

Rule rule_of(const std::string& text, const std::string& where) {
    if (text == "rounds_to") return Rule::rounds_to;
    if (text == "exact") return Rule::exact;
    if (text == "approx") return Rule::approx;
    if (text == "within") return Rule::within;
    if (text == "outside") return Rule::outside;
    throw InputFileError(where + ": unknown rule '" + text + "' (expected rounds_to, exact, approx, within or outside)");
}

ClaimVerdict claim_verdict_of(const std::string& text, const std::string& where) {
    for (ClaimVerdict v : {ClaimVerdict::holds, ClaimVerdict::source_erratum, ClaimVerdict::fails})
        if (text == claim_verdict_name(v)) return v;
    throw InputFileError(where + ": unknown verdict '" + text + "' (expected holds, source_erratum or fails)");
}

// The book sets minus signs as U+2212; the rules read ASCII.
std::string ascii_minus(std::string text) {
    for (std::size_t at; (at = text.find("\u2212")) != std::string::npos;) text.replace(at, 3, "-");
    return text;
}

Mpfr50 real_of(const std::string& text, const std::string& where) {
    try {
        return parse_real<Mpfr50>(text);
    } catch (const std::invalid_argument&) {
        throw InputFileError(where + ": '" + text + "' is not a decimal number");
    }
}

// The numbers of a value text ("0.5", "[1, 0]", "[[1, 0], [0, 1]]"), flattened.
std::vector<std::string> number_texts(const std::string& text, const std::string& where) {
    Reading reading;
    try {
        reading = parse_reading(text);
    } catch (const ProtocolError& e) {
        throw InputFileError(where + ": " + e.what());
    }
    std::vector<std::string> out;
    if (auto* n = std::get_if<NumberText>(&reading)) out.push_back(n->text);
    else if (auto* v = std::get_if<std::vector<NumberText>>(&reading))
        for (const NumberText& x : *v) out.push_back(x.text);
    else if (auto* m = std::get_if<std::vector<std::vector<NumberText>>>(&reading))
        for (const auto& row : *m)
            for (const NumberText& x : row) out.push_back(x.text);
    else throw InputFileError(where + ": '" + text + "' is not a number, vector or matrix");
    for (const std::string& x : out) real_of(x, where);
    return out;
}

// Digits after the point of a plain decimal ("0.731059" -> 6, "12" -> 0).
int decimals_of(const std::string& text, const std::string& where) {
    if (text.find_first_of("eE") != std::string::npos)
        throw InputFileError(where + ": rounds_to needs plain decimals, found '" + text + "'");
    const std::size_t point = text.find('.');
    return point == std::string::npos ? 0 : int(text.size() - point - 1);
}

// Checks that the claim's parameters suit its rule, so that a bad file fails on reading.
void check_rule_parameters(const Claim& c, const std::string& where) {
    switch (c.rule) {
        case Rule::rounds_to:
            for (const std::string& x : number_texts(c.value, where + ".value")) decimals_of(x, where + ".value");
            break;
        case Rule::exact: {
            const std::string word = c.value;
            if (word != "true" && word != "false" && word != "undefined") number_texts(word, where + ".value");
            break;
        }
        case Rule::approx:
            number_texts(c.value, where + ".value");
            if (c.tolerance.empty()) throw InputFileError(where + ".tolerance: missing field (the approx rule needs it)");
            real_of(c.tolerance, where + ".tolerance");
            break;
        case Rule::within:
        case Rule::outside:
            if (c.min.empty() && c.max.empty()) throw InputFileError(where + ": the " + std::string(c.rule == Rule::within ? "within" : "outside") + " rule needs min, max or both");
            if (!c.min.empty()) real_of(c.min, where + ".min");
            if (!c.max.empty()) real_of(c.max, where + ".max");
            break;
    }
}

Claim claim_of(const Json& json, const std::string& where, const Text& document, bool about_block) {
    reject_unknown_fields(json, {"id", "section", "statement", "printed", "step", "rule", "value", "tolerance", "min", "max", "expected_verdict"}, where);
    Claim c;
    c.document = document;
    c.about_block = about_block;
    c.id = string_field(json, "id", where);
    c.section = string_field(json, "section", where);
    c.statement = text_field(json, "statement", where);
    c.printed = string_field(json, "printed", where);
    c.step = string_field(json, "step", where);
    c.rule = rule_of(string_field(json, "rule", where), where + ".rule");
    const std::string value = optional_string_field(json, "value", where);
    c.value = ascii_minus(value.empty() ? c.printed : value);
    c.tolerance = optional_string_field(json, "tolerance", where);
    c.min = optional_string_field(json, "min", where);
    c.max = optional_string_field(json, "max", where);
    c.expected = claim_verdict_of(string_field(json, "expected_verdict", where), where + ".expected_verdict");
    check_rule_parameters(c, where);
    return c;
}

// ---- evaluating ----

std::vector<Mpfr50> numbers_of(const Step<Mpfr50>& step) {
    if (step.kind == StepKind::undefined || step.kind == StepKind::boolean) return {};
    return step.value.values;
}

// items laid out in the step's shape: "x", "[a, b]" or "[[a, b], [c, d]]".
std::string in_shape(const std::vector<std::string>& items, const Step<Mpfr50>& step) {
    if (step.form == StepForm::scalar && items.size() == 1) return items.front();
    auto row = [&items](std::size_t first, std::size_t count) {
        std::string out = "[";
        for (std::size_t i = 0; i < count; ++i) out += (i ? ", " : "") + items[first + i];
        return out + "]";
    };
    if (step.form != StepForm::matrix) return row(0, items.size());
    std::string out = "[";
    for (std::size_t r = 0; r < step.value.rows; ++r) out += (r ? ", " : "") + row(r * step.value.cols, step.value.cols);
    return out + "]";
}

// One computed number for the table: whole numbers whole, differences in scientific notation.
std::string shown(const Mpfr50& x, StepKind kind, int significant) {
    if (kind == StepKind::integer) return fixed_decimals(x, 0);
    if (kind == StepKind::difference) return scientific(x, 3);
    return without_negative_zero(to_decimal(x, significant));
}

std::string all_shown(const Step<Mpfr50>& step, int significant) {
    std::vector<std::string> items;
    for (const Mpfr50& x : numbers_of(step)) items.push_back(shown(x, step.kind, significant));
    return in_shape(items, step);
}

bool rounds_to(const Claim& c, const Step<Mpfr50>& step, std::string& computed) {
    const std::string where = c.where() + ".value";
    const std::vector<std::string> printed = number_texts(c.value, where);
    const std::vector<Mpfr50> xs = numbers_of(step);
    bool agrees = step.kind != StepKind::undefined && step.kind != StepKind::boolean && printed.size() == xs.size();
    std::vector<std::string> items;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const int decimals = i < printed.size() ? decimals_of(printed[i], where) : book_decimals;
        items.push_back(step.kind == StepKind::integer ? fixed_decimals(xs[i], 0) : fixed_decimals(xs[i], decimals + 4));
        if (i < printed.size()) agrees = agrees && real_of(fixed_decimals(xs[i], decimals), where) == real_of(printed[i], where);
    }
    computed = in_shape(items, step);
    return agrees;
}

bool exact(const Claim& c, const Step<Mpfr50>& step, std::string& computed) {
    computed = step.kind == StepKind::real ? all_shown(step, 20) : format_inline(step, 0);
    if (c.value == "true" || c.value == "false")
        return step.kind == StepKind::boolean && (step.value(0, 0) != 0) == (c.value == "true");
    if (c.value == "undefined") return step.kind == StepKind::undefined;
    const std::vector<std::string> printed = number_texts(c.value, c.where() + ".value");
    const std::vector<Mpfr50> xs = numbers_of(step);
    if (step.kind == StepKind::undefined || step.kind == StepKind::boolean || printed.size() != xs.size()) return false;
    for (std::size_t i = 0; i < xs.size(); ++i)
        if (xs[i] != real_of(printed[i], c.where() + ".value")) return false;
    return true;
}

bool approx(const Claim& c, const Step<Mpfr50>& step, std::string& computed) {
    using std::abs;
    const std::vector<std::string> printed = number_texts(c.value, c.where() + ".value");
    const std::vector<Mpfr50> xs = numbers_of(step);
    const Mpfr50 tolerance = real_of(c.tolerance, c.where() + ".tolerance");
    computed = all_shown(step, 10);
    if (step.kind == StepKind::undefined || step.kind == StepKind::boolean || printed.size() != xs.size()) return false;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const Mpfr50 expected = real_of(printed[i], c.where() + ".value");
        if (abs(xs[i] - expected) > tolerance * std::max(abs(expected), Mpfr50(1))) return false;
    }
    return true;
}

// within: every number in [min, max]; outside: at least one is not. `computed` names the
// numbers outside the interval.
bool interval(const Claim& c, const Step<Mpfr50>& step, std::string& computed) {
    const std::vector<Mpfr50> xs = numbers_of(step);
    computed = all_shown(step, 7);
    if (step.kind == StepKind::undefined || step.kind == StepKind::boolean || xs.empty()) return false;
    std::vector<std::string> out;
    for (const Mpfr50& x : xs) {
        const bool below = !c.min.empty() && x < real_of(c.min, c.where() + ".min");
        const bool above = !c.max.empty() && x > real_of(c.max, c.where() + ".max");
        if (below || above) out.push_back(shown(x, step.kind, 7));
    }
    if (!out.empty()) {
        std::string list;
        for (const std::string& x : out) list += (list.empty() ? "" : ", ") + x;
        computed += fmt::format("; outside [{}, {}]: {}", c.min.empty() ? "-inf" : c.min, c.max.empty() ? "inf" : c.max, list);
    }
    return c.rule == Rule::within ? out.empty() : !out.empty();
}

}  // namespace

std::string_view claim_verdict_name(ClaimVerdict verdict) {
    switch (verdict) {
        case ClaimVerdict::holds: return "holds";
        case ClaimVerdict::source_erratum: return "source_erratum";
        case ClaimVerdict::fails: return "fails";
    }
    return "fails";
}

std::string Claim::where() const { return fmt::format("{}: claims[{}] ({})", file, index, id); }

void parse_claims(const Json& json, const std::string& source, ClaimSet& into) {
    const std::string top = source + ":";  // the file's top level
    reject_unknown_fields(json, {"document", "about", "claims", "not_checked"}, top);
    const Text document = text_field(json, "document", top);
    const std::string about = string_field(json, "about", top);
    if (about != "source" && about != "block")
        throw InputFileError(field_path(top, "about") + ": expected \"source\" (a document's claims) or \"block\" (the block's properties)");
    const Json& claims = required_field(json, "claims", top);
    if (!claims.is_array()) throw InputFileError(field_path(top, "claims") + ": expected an array");
    std::set<std::string> ids;
    for (const Claim& c : into.claims) ids.insert(c.id);
    for (std::size_t i = 0; i < claims.size(); ++i) {
        const std::string where = fmt::format("{}: claims[{}]", source, i);
        Claim c = claim_of(claims[i], where, document, about == "block");
        c.file = source;
        c.index = i;
        if (!ids.insert(c.id).second) throw InputFileError(where + ".id: '" + c.id + "' appears twice");
        into.claims.push_back(std::move(c));
    }
    if (json.contains("not_checked")) {
        const Json& unchecked = json["not_checked"];
        if (!unchecked.is_array()) throw InputFileError(field_path(top, "not_checked") + ": expected an array");
        for (std::size_t i = 0; i < unchecked.size(); ++i) {
            const std::string where = fmt::format("{}: not_checked[{}]", source, i);
            reject_unknown_fields(unchecked[i], {"section", "statement", "reason"}, where);
            into.unchecked.push_back({document, string_field(unchecked[i], "section", where),
                                      text_field(unchecked[i], "statement", where),
                                      text_field(unchecked[i], "reason", where)});
        }
    }
}

ClaimSet read_claims(const std::filesystem::path& path) {
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(path)) {
        for (const auto& entry : std::filesystem::directory_iterator(path))
            if (entry.path().extension() == ".json") files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        if (files.empty()) throw InputFileError(path.string() + ": no claims files (*.json)");
    } else {
        files.push_back(path);
    }
    ClaimSet set;
    for (const auto& file : files) parse_claims(read_json_exact(file), file.string(), set);
    return set;
}

ClaimResult evaluate_claim(const Claim& claim, const Step<Mpfr50>& step) {
    std::string computed;
    bool agrees = false;
    switch (claim.rule) {
        case Rule::rounds_to: agrees = rounds_to(claim, step, computed); break;
        case Rule::exact: agrees = exact(claim, step, computed); break;
        case Rule::approx: agrees = approx(claim, step, computed); break;
        case Rule::within:
        case Rule::outside: agrees = interval(claim, step, computed); break;
    }
    const ClaimVerdict verdict = agrees ? ClaimVerdict::holds : claim.about_block ? ClaimVerdict::fails : ClaimVerdict::source_erratum;
    return {verdict, computed};
}

ClaimResult failed_claim(const std::string& error) { return {ClaimVerdict::fails, "error: " + error}; }

}  // namespace blockcheck
