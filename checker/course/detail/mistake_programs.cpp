#include "checker/course/mistake_programs.hpp"

#include "checker/common/files.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/variants.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

namespace blockcheck {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines_of(const fs::path& file) {
    std::vector<std::string> lines;
    std::istringstream in(read_file(file));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::string trimmed(const std::string& line) {
    const auto first = line.find_first_not_of(" \t"), last = line.find_last_not_of(" \t");
    return first == std::string::npos ? "" : line.substr(first, last - first + 1);
}

MistakeProgram read_program(const fs::path& file) {
    MistakeProgram p{file, {}, {}, {}, {}};
    for (const std::string& line : lines_of(file)) {
        if (!line.starts_with("//")) break;
        if (line.starts_with("// expect: ")) std::istringstream(line.substr(11)) >> p.exercise >> p.part >> p.mistake;
        if (line.starts_with("// inputs: ")) p.inputs = line.substr(11);
    }
    if (p.mistake.empty() || p.inputs.empty())
        throw InputFileError(file.string() + ": expected \"// expect: <exercise> <part> <mistake>\" and \"// inputs: ...\"");
    return p;
}

InputList inputs_for(const Exercise& e, const MistakeProgram& p) {
    if (p.inputs == "book") return e.inputs;
    if (p.inputs.starts_with("variant ")) return variant_inputs(e, std::stoull(p.inputs.substr(8)));
    const std::size_t eq = p.inputs.find(" = ");
    if (eq == std::string::npos) throw InputFileError(p.file.string() + ": inputs: " + p.inputs);
    InputList inputs = e.inputs;
    for (auto& [name, value] : inputs)
        if (name == p.inputs.substr(0, eq)) value = p.inputs.substr(eq + 3);
    return inputs;
}

// The program to grade: a whole program as it is, a slip written out under the exercise's file name.
fs::path program_for(const fs::path& root, const MistakeProgram& p, const Exercise& e, const fs::path& scratch) {
    if (p.file.extension() != ".slip") return p.file;
    const fs::path program = scratch / p.mistake / e.file_name();
    fs::create_directories(program.parent_path());
    write_file_atomically(program, slip_program_text(root, p.file));
    return program;
}

// A number as a double program prints it: 17 significant digits.
std::string printed(const Real& x) { return fmt::format("{:.16e}", x.convert_to<double>()); }

std::string printed(const Value& value) {
    auto row = [](auto begin, auto end) {
        std::string out = "[";
        for (auto it = begin; it != end; ++it) out += (it == begin ? "" : ", ") + printed(*it);
        return out + "]";
    };
    if (auto* x = std::get_if<Real>(&value)) return printed(*x);
    if (auto* v = std::get_if<Vector<Real>>(&value)) return row(v->begin(), v->end());
    if (auto* m = std::get_if<Matrix<Real>>(&value)) {
        std::string out = "[";
        for (std::size_t r = 0; r < m->rows; ++r) out += (r ? ", " : "") + row(m->row(r).begin(), m->row(r).end());
        return out + "]";
    }
    return format_value(value, 17);
}

}  // namespace

std::string synthetic_output(const Exercise& e, const Values& values) {
    std::string out;
    for (const AnswerSpec& spec : e.answers)
        if (auto it = values.find(spec.name); it != values.end())
            out += spec.name + " = " + (spec.kind == AnswerKind::integer ? format_value(it->second, 30) : printed(it->second)) + "\n";
    return out;
}

Values made_program_answers(const Exercise& e, const InputList& inputs, const std::vector<std::string>& made) {
    const ExpectedCase c = expected_answers_and_mistakes(e, inputs);
    if (made.size() == 2) {
        const auto both = e.expected->pair_mistakes(e, inputs, {{made[0], made[1]}});
        return both.empty() ? c.answers : both.begin()->second;
    }
    auto it = c.mistakes.find(made.front());
    return it == c.mistakes.end() ? c.answers : it->second;
}

ExerciseResult judge_made_program(const Exercise& e, const InputList& inputs, const std::function<Values(const InputList&)>& make,
                                  const std::string& student) {
    ExerciseResult r = grade_output(e, inputs, synthetic_output(e, make(inputs)), {});
    confirm_diagnoses(e, r, student, [&](const InputList& other) { return grade_output(e, other, synthetic_output(e, make(other)), {}); });
    return r;
}

std::vector<MistakeProgram> mistake_programs(const fs::path& root) {
    std::vector<MistakeProgram> all;
    const fs::path dir = root / "tests" / "mistakes";
    if (!fs::is_directory(dir)) return all;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        if (entry.is_regular_file()) all.push_back(read_program(entry.path()));
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.file < b.file; });
    return all;
}

std::string slip_program_text(const fs::path& root, const fs::path& slip) {
    std::vector<std::string> program;
    std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> blocks;
    bool after_with = true;  // a replace line after with lines starts the next block
    for (const std::string& line : lines_of(slip)) {
        if (line.starts_with("// from: ")) program = lines_of(root / line.substr(9));
        if (line.starts_with("// replace: ")) {
            if (after_with) blocks.emplace_back();
            after_with = false;
            blocks.back().first.push_back(trimmed(line.substr(12)));
        } else if (line.starts_with("// with: ") || line == "// with nothing") {
            if (blocks.empty()) throw InputFileError(slip.string() + ": \"// with\" before any \"// replace:\"");
            if (line != "// with nothing") blocks.back().second.push_back(line.substr(9));
            after_with = true;
        }
    }
    if (program.empty()) throw InputFileError(slip.string() + ": no \"// from:\" program");
    for (const auto& [replace, with] : blocks) {
        std::vector<std::size_t> hits;
        for (std::size_t i = 0; i + replace.size() <= program.size(); ++i) {
            bool same = true;
            for (std::size_t k = 0; same && k < replace.size(); ++k) same = trimmed(program[i + k]) == replace[k];
            if (same) hits.push_back(i);
        }
        if (hits.size() != 1)
            throw InputFileError(fmt::format("{}: \"{}\" found {} times", slip.string(), replace.front(), hits.size()));
        program.erase(program.begin() + long(hits[0]), program.begin() + long(hits[0] + replace.size()));
        program.insert(program.begin() + long(hits[0]), with.begin(), with.end());
    }
    std::string text;
    for (const std::string& line : program) text += line + "\n";
    return text;
}

std::vector<std::string> mistake_program_faults(const fs::path& root, const Exercise& e, const MistakeProgram& p,
                                                const RunSettings& run, const fs::path& scratch) {
    std::vector<std::string> faults;
    if (p.file.parent_path().filename() != p.mistake) faults.push_back("its folder is not named " + p.mistake);
    const fs::path program = program_for(root, p, e, scratch);
    ProgramToJudge judged{program, {}, inputs_for(e, p), std::nullopt, std::nullopt};
    if (p.mistake == "hard_coded") judged.probe = variant_seed("hard_coded_probe", e.id);  // check's quiet probe
    const ExerciseResult r = judge_program(e, judged, run, {});
    bool found = false;
    for (const PartResult& part : r.parts) {
        if (part.diagnosis && part.diagnosis->id != p.mistake)
            faults.push_back(fmt::format("{} is told {} ({})", part.name, part.diagnosis->id, part.message.en));
        if (part.diagnosis && part.diagnosis->id == p.mistake && (p.part == "*" || part.name == p.part)) found = true;
        if (p.part == "*" && part.verdict != Verdict::correct)
            faults.push_back(fmt::format("{} is {}: {}", part.name, verdict_name(part.verdict), part.message.en));
        if (part.name == p.part && p.mistake != "hard_coded" && part.verdict != Verdict::wrong)
            faults.push_back(fmt::format("{} is {}, not wrong: {}", part.name, verdict_name(part.verdict), part.message.en));
    }
    if (!found) faults.push_back(fmt::format("{} is not told {}", p.part, p.mistake));
    if (p.part == "*" && r.score != r.max_score) faults.push_back("no full marks");
    return faults;
}

}  // namespace blockcheck
