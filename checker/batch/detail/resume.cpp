#include "checker/batch/detail/resume.hpp"

#include "checker/common/files.hpp"
#include "checker/common/hashing.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/outputs/student_id.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace blockcheck {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

// The grader binary's bytes (the reference solutions and the comparison live in it).
std::string grader_binary_hash() {
    static const std::string hash = hex(content_hash(read_file_if_readable("/proc/self/exe").value_or("unknown grader")));
    return hash;
}

Digest hash_limits(Digest h, const Limits& l) {
    return hash_field(h, fmt::format("{}|{}|{}|{}|{}|{}|{}", l.cpu_seconds, l.wall_seconds, l.memory_bytes,
                                     l.output_bytes, l.file_bytes, l.open_files, l.processes));
}

// An exercise as graded: its id, its definition, and its parts' points (an assignment scales them).
Digest hash_exercise(Digest h, const Exercise& e) {
    h = hash_field(h, e.id);
    h = hash_field(h, read_file_if_readable(e.file).value_or("<unreadable>"));
    for (const AnswerSpec& a : e.answers) h = hash_field(h, fmt::format("{}={:.17g}", a.name, a.points));
    return h;
}

}  // namespace

Digest run_fingerprint(const ExerciseSet& set, const GradeSettings& s, Isolation isolation) {
    Digest h = content_hash("blockcheck-grade-1");
    h = hash_field(h, grader_binary_hash());
    h = hash_field(h, compiler_identity("g++"));
    std::vector<fs::path> headers;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(s.include_dir, ec))
        if (entry.is_regular_file(ec)) headers.push_back(entry.path());
    std::sort(headers.begin(), headers.end());
    for (const fs::path& header : headers) {
        h = hash_field(h, header.filename().string());
        h = hash_field(h, read_file_if_readable(header).value_or("<unreadable>"));
    }
    for (const Exercise& e : set.all()) h = hash_exercise(h, e);
    h = hash_limits(h, s.run_limits);
    h = hash_limits(h, s.compile_limits);
    h = hash_field(h, isolation_name(isolation));
    h = hash_field(h, fmt::format("{}|{}|{}|{}{}{}", s.variants, s.reveal, s.lang == Lang::zh ? "zh" : "en",
                                  s.accept_near_names, s.follow_through ? "|follow-through" : "",
                                  s.tutor ? "" : "|no-tutor"));
    return h;
}

std::string exercises_fingerprint(const ExerciseSet& set) {
    Digest h = content_hash("blockcheck-exercises-1");
    for (const Exercise& e : set.all()) h = hash_exercise(h, e);
    return hex(h);
}

std::string student_key(const Digest& fingerprint, const std::string& student, const Sources& sources,
                        const std::vector<std::optional<SubmittedProgram>>& programs) {
    Digest h = fingerprint;
    h = hash_field(h, student);
    for (std::size_t i = 0; i < sources.file.size(); ++i) {
        h = hash_field(h, sources.relative[i]);
        const SubmittedProgram* program = i < programs.size() && programs[i] ? &*programs[i] : nullptr;
        if (!program) {
            h = hash_field(h, "<none>");
            continue;
        }
        if (!program->readable()) h = hash_field(h, "<unreadable>" + program->problem.en);
        else h = hash_field(h, hex(program->source.hash));
        for (const SubmissionFile& header : program->headers) h = hash_field(hash_field(h, header.name), hex(header.hash));
        for (const Text& note : program->notes) h = hash_field(h, note.en);  // a link beside it, and such
    }
    for (const MisnamedFile& m : sources.misnamed) h = hash_field(h, m.file);  // a file renamed changes the feedback
    h = hash_field(h, std::to_string(sources.misnamed_more));
    return hex(h);
}

EarlierResult earlier_result(const fs::path& results_dir, const std::string& student, const std::string& key) {
    EarlierResult found;
    try {
        // the checked read: a result planted as a pipe or a link is damaged, not waited on
        const auto text = read_folder_file_if_present(results_dir, student_file_stem(student) + ".json", max_json_file_bytes);
        if (!text) return found;
        StudentRecord earlier = student_from_json(parse_json(*text, student));
        if (earlier.key != key || earlier.student != student) return found;
        if (!earlier.has_grader_fault()) {
            found.reusable = std::move(earlier);
            return found;
        }
        for (const ExerciseRecord& e : earlier.exercises)
            if (e.has_grader_fault()) found.faults.insert(e.id);
    } catch (const std::exception&) {
        // damaged: graded again
    }
    return found;
}

void mark_repeated_faults(StudentRecord& record, const std::set<std::string>& earlier_faults) {
    for (ExerciseRecord& e : record.exercises) {
        if (!e.has_grader_fault() || !earlier_faults.contains(e.id)) continue;
        e.fault_repeated = true;
        e.score = 0;
        for (PartRecord& p : e.parts) {
            if (p.verdict == "grader_fault") p.score = 0;
            e.score += p.score;
        }
        e.status = "failing";
    }
}

Json run_manifest(const ExerciseSet& set, bool variants, const std::optional<Shard>& shard,
                  const std::vector<StudentRecord>& students) {
    Json stems = Json::array();
    for (const StudentRecord& r : students) stems.push_back(student_file_stem(r.student));
    // each exercise's points as graded (an assignment's, or its own): `check --student --out` reads them
    Json points = Json::array();
    for (const Exercise& e : set.all()) points.push_back({{"id", e.id}, {"points", e.max_score()}});
    return {{"results", stems},
            {"shard", shard ? Json(shard->text()) : Json(nullptr)},
            {"variants", variants},
            {"exercises", exercises_fingerprint(set)},
            {"points", points}};
}

Assignment graded_assignment(const std::filesystem::path& out) {
    const std::filesystem::path file = out / manifest_name;
    const std::string where = printable_id(file.string());
    if (!std::filesystem::exists(file))
        throw InputFileError(where + ": not found: no finished grade run in " + printable_id(out.string()));
    // points as doubles, exactly as written; the checked read and the limited reader (a FIFO, a link to
    // /dev/zero or JSON nested too deep is refused by name)
    const nlohmann::json m = parse_json(read_user_file(file, max_json_file_bytes), where);
    if (!m.is_object() || !m.contains("points") || !m["points"].is_array())
        throw InputFileError(where + ": has no \"points\" (graded by an older blockcheck): give the run's --assignment FILE instead");
    Assignment graded{"graded in " + out.string(), {}};
    for (std::size_t i = 0; i < m["points"].size(); ++i) {
        const auto& row = m["points"][i];
        const std::string at = fmt::format("{}: points[{}]", where, i);
        if (!row.is_object() || !row.contains("id") || !row["id"].is_string() || !row.contains("points") || !row["points"].is_number())
            throw InputFileError(at + ": expected {\"id\": \"...\", \"points\": N}");
        graded.exercises.push_back({row["id"].get<std::string>(), row["points"].get<double>(), at});
    }
    return graded;
}

}  // namespace blockcheck
