#include "checker/insight/insight_shared.hpp"

#include "checker/exercise/protocol.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace blockcheck {

namespace {

std::size_t digits(std::string_view text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }));
}

std::string trimmed(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    return std::string(text);
}

bool answered(const ExerciseRecord& e) {
    return std::any_of(e.parts.begin(), e.parts.end(), [](const PartRecord& p) {
        return p.verdict != "missing" && p.verdict != "grader_fault" && p.verdict != "compile_error";
    });
}

}  // namespace

void keep_wrong_answers(ExerciseRecord& record, std::string_view output) {
    if (output.empty()) return;
    const ProgramOutput parsed = parse_program_output(output);
    for (PartRecord& p : record.parts) {
        if (p.verdict != "wrong") continue;
        auto it = parsed.answers.find(p.name);
        if (it == parsed.answers.end()) continue;
        const std::string& line = it->second.text;
        const std::size_t eq = line.find('=');
        if (eq != std::string::npos) p.given = trimmed(std::string_view(line).substr(eq + 1));
    }
}

std::vector<SharedAnswer> shared_answers(const ExerciseSet& set, const std::vector<StudentRecord>& students) {
    std::vector<SharedAnswer> groups;
    for (const Exercise& e : set.all())
        for (const AnswerSpec& a : e.answers) {
            std::map<std::string, std::vector<std::string>> by_answer;
            for (const StudentRecord& s : students) {
                const ExerciseRecord* r = s.error.empty() ? exercise_record(s, e.id) : nullptr;
                if (!r || r->variant) continue;  // the book's inputs only
                for (const PartRecord& p : r->parts)
                    if (p.name == a.name && p.verdict == "wrong" && p.diagnosis_id.empty() && !p.follows &&
                        digits(p.given) >= shared_answer_min_digits)
                        by_answer[p.given].push_back(s.student);
            }
            for (auto& [answer, who] : by_answer)
                if (who.size() >= 2) groups.push_back({e.id, a.name, answer, std::move(who)});
        }
    return groups;
}

std::vector<SharedCode> shared_code(const ExerciseSet& set, const std::vector<StudentRecord>& students,
                                    std::vector<SharedCode>& common) {
    std::vector<SharedCode> groups;
    for (const Exercise& e : set.all()) {
        std::map<std::string, SharedCode> by_shape;
        std::size_t programs = 0;
        for (const StudentRecord& s : students) {
            const ExerciseRecord* r = s.error.empty() ? exercise_record(s, e.id) : nullptr;
            if (!r || r->code_shape.empty() || !answered(*r)) continue;
            ++programs;
            SharedCode& g = by_shape[r->code_shape];
            if (g.students.empty()) g = {e.id, shape_tokens(r->code_shape), true, {}};
            g.all_right = g.all_right && r->status == "done";
            g.students.push_back(s.student);
        }
        const std::size_t cap = std::max<std::size_t>(2, programs / 5);
        std::vector<SharedCode> found;
        for (auto& [shape, g] : by_shape)
            if (g.students.size() >= 2) found.push_back(std::move(g));
        // the order of a group's first student, so the output never depends on hash values
        std::sort(found.begin(), found.end(), [](const SharedCode& a, const SharedCode& b) { return a.students < b.students; });
        for (SharedCode& g : found) {
            if (g.students.size() > cap) {
                common.push_back(std::move(g));
                continue;
            }
            groups.push_back(std::move(g));
        }
    }
    return groups;
}

}  // namespace blockcheck
