#include "checker/exercise/mistake_catalogue.hpp"

#include "checker/common/json_exact.hpp"
#include "checker/exercise/grading.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace blockcheck {
namespace {

// data/mistakes.json as the build read it (CMakeLists.txt writes the include).
constexpr const char catalogue_text[] =
#include "mistakes_json.inc"
    ;

Text text_of_entry(const nlohmann::json& entry, const char* key, const std::string& where) {
    const auto& t = entry.at(key);
    Text text{t.at("en").get<std::string>(), t.at("zh").get<std::string>()};
    if (text.en.empty() || text.zh.empty()) throw std::logic_error(where + "." + key + ": empty text");
    return text;
}

// "parameter": {"name": "weight", "values": ["q_proj", ...]}: a family of port mistakes.
void read_parameter(const nlohmann::json& parameter, MistakeEntry& m, const std::string& where) {
    m.parameter = parameter.at("name").get<std::string>();
    m.parameter_values = parameter.at("values").get<std::vector<std::string>>();
    if (!m.port) throw std::logic_error(where + ".parameter: only a port mistake is a family");
    if (m.parameter.empty() || m.parameter_values.empty())
        throw std::logic_error(where + ".parameter: a name and at least one value are needed");
    const std::string slot = "{" + m.parameter + "}";
    if (m.changes.en.find(slot) == std::string::npos || m.changes.zh.find(slot) == std::string::npos)
        throw std::logic_error(where + ".changes: a family's words name its member with " + slot);
}

std::vector<MistakeEntry> read_catalogue() {
    const auto json = nlohmann::json::parse(catalogue_text);
    std::vector<MistakeEntry> all;
    for (const auto& entry : json.at("mistakes")) {
        const std::string where = "data/mistakes.json: " + entry.value("id", std::string("(no id)"));
        try {
            MistakeEntry m{entry.at("id").get<std::string>(), entry.at("mechanism").get<std::string>(),
                           entry.at("made_by").get<std::string>(), text_of_entry(entry, "changes", where),
                           text_of_entry(entry, "message", where)};
            // "block": made by a switch of the block itself (the RoPE-scaling porting mistakes), as "reference"
            if (m.made_by != "reference" && m.made_by != "block" && m.made_by != "inputs" && m.made_by != "expected")
                throw std::logic_error(where + ".made_by: expected reference, block, inputs or expected");
            m.port = entry.value("port", false);
            if (m.port && m.made_by != "reference" && m.made_by != "block")
                throw std::logic_error(where + ".port: only a mistake made by the reference or the block");
            if (m.port) m.shown_by = text_of_entry(entry, "shown_by", where);
            m.same_slip_as = entry.value("same_slip_as", std::string());
            if (entry.contains("parameter")) read_parameter(entry.at("parameter"), m, where);
            if (std::any_of(all.begin(), all.end(), [&](const MistakeEntry& e) { return e.id == m.id; }))
                throw std::logic_error(where + ": the id is listed twice");
            all.push_back(std::move(m));
        } catch (const nlohmann::json::exception& e) {
            throw std::logic_error(where + ": " + e.what());
        }
    }
    for (const MistakeEntry& m : all)
        if (!m.same_slip_as.empty() &&
            std::none_of(all.begin(), all.end(), [&](const MistakeEntry& e) { return e.id == m.same_slip_as; }))
            throw std::logic_error("data/mistakes.json: " + m.id + ".same_slip_as: no entry " + m.same_slip_as);
    return all;
}

}  // namespace

const std::vector<MistakeEntry>& mistake_catalogue() {
    static const std::vector<MistakeEntry> all = read_catalogue();
    return all;
}

Text parameter_text(const MistakeEntry& entry, const Text& text, const std::string& value) {
    if (entry.parameter.empty()) return text;
    const std::string slot = "{" + entry.parameter + "}";
    Text filled = text;
    for (std::string* s : {&filled.en, &filled.zh})
        for (auto at = s->find(slot); at != std::string::npos; at = s->find(slot, at + value.size()))
            s->replace(at, slot.size(), value);
    return filled;
}

const MistakeEntry* find_mistake(std::string_view id) {
    for (const MistakeEntry& m : mistake_catalogue())
        if (m.id == id) return &m;
    return nullptr;
}

void require_known_mistake(const std::string& id, const std::string& where) {
    if (find_mistake(id)) return;
    std::vector<std::string> ids;
    for (const MistakeEntry& m : mistake_catalogue()) ids.push_back(m.id);
    std::string message = where + ": unknown mistake \"" + id + "\" (not in data/mistakes.json)";
    if (auto near = closest_name(id, ids)) message += "; did you mean \"" + *near + "\"?";
    throw InputFileError(message);
}

std::string mistakes_doc() {
    std::string doc =
        "# The mistake catalogue\n\n"
        "Written by `blockcheck validate --mistakes-doc` from data/mistakes.json (a test keeps the two "
        "alike). Each mistake changes exactly one thing: the reference (or the block) makes it with one "
        "switch (`made by: reference`), on changed inputs (`inputs`), or the grader reads it off the "
        "expected value (`expected`). A mistake belongs to its mechanism, not to an exercise: it is tried on "
        "every exercise whose reference runs the function it switches (an exercise may exclude one, with a "
        "reason, under `mistakes_excluded`). It is named when it explains the whole program, or one step "
        "recomputed from the student's own earlier numbers, and the same mistake reproduces the student's "
        "numbers on other inputs.\n\n"
        "| id | mechanism | made by | the one thing it changes |\n|---|---|---|---|\n";
    for (const MistakeEntry& m : mistake_catalogue())
        doc += fmt::format("| `{}` | {} | {} | {} |\n", m.id, m.mechanism, m.made_by, m.changes.en);
    return doc;
}

}  // namespace blockcheck
