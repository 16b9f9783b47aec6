#include "checker/batch/merge.hpp"

#include "checker/common/files.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/batch/batch.hpp"
#include "checker/outputs/gradescope.hpp"
#include "checker/batch/detail/output_lock.hpp"
#include "checker/batch/detail/resume.hpp"
#include "checker/outputs/student_id.hpp"

#include <map>
#include <optional>
#include <set>

namespace blockcheck {

namespace fs = std::filesystem;

namespace {

// The shards' students by id, where each came from, and what the manifests said.
struct Gathered {
    std::map<std::string, StudentRecord> students;
    std::map<std::string, fs::path> from;
    std::optional<bool> variants;
    std::set<std::string> shards_seen;
    std::set<unsigned> counts;
};

// A shard's result, read the checked way (a regular file inside results/, no link out, at most
// max_json_file_bytes): a shard's folder may come from another machine. `stem` comes from its manifest.
StudentRecord read_result(const fs::path& dir, const std::string& stem) {
    const fs::path result = dir / "results" / (stem + ".json");
    try {
        return student_from_json(parse_json(read_folder_file(dir / "results", stem + ".json", max_json_file_bytes), result.string()));
    } catch (const InputFileError& e) {
        throw InputFileError(printable_id(e.what()));
    } catch (const std::exception& e) {
        throw InputFileError(printable_id(result.string()) + ": " + e.what());
    }
}

// One shard's output folder into `g`.
void gather(const fs::path& dir, const std::string& exercises, Gathered& g, std::vector<std::string>* warnings) {
    const fs::path file = dir / manifest_name;
    if (!fs::exists(file)) throw InputFileError(dir.string() + ": no finished grade run here (no " + manifest_name + ")");
    const auto m = read_json_exact(file);
    try {
        if (m.at("exercises").get<std::string>() != exercises)
            throw InputFileError(dir.string() + ": graded with other exercise definitions than these");
        const bool v = m.at("variants").get<bool>();
        if (g.variants && *g.variants != v)
            throw InputFileError(dir.string() + ": graded " + (v ? "with" : "without") + " --variants, unlike the folders before it");
        g.variants = v;
        if (!m.at("shard").is_null()) {
            const std::string text = m["shard"].get<std::string>();
            if (!g.shards_seen.insert(text).second && warnings) warnings->push_back("shard " + text + " given twice");
            g.counts.insert(parse_shard(text).count);
        }
        for (const auto& name : m.contains("results") ? m["results"] : m.at("students")) {
            StudentRecord record = read_result(dir, name.get<std::string>());
            const std::string student = record.student;
            if (auto it = g.students.find(student); it != g.students.end()) {
                if (it->second.key != record.key)
                    throw InputFileError("student '" + printable_id(student) + "' was graded differently in " +
                                         g.from[student].string() + " and " + dir.string());
                continue;
            }
            g.from[student] = dir;
            g.students.emplace(student, std::move(record));
        }
    } catch (const nlohmann::json::exception& e) {
        throw InputFileError(file.string() + ": " + e.what());
    }
}

void warn_missing_shards(const Gathered& g, std::vector<std::string>& warnings) {
    if (g.counts.size() > 1) return warnings.push_back("the shards were cut in different numbers of parts");
    if (g.counts.empty()) return;
    const unsigned n = *g.counts.begin();
    for (unsigned k = 1; k <= n; ++k)
        if (!g.shards_seen.contains(Shard{k, n}.text())) warnings.push_back("shard " + Shard{k, n}.text() + " is missing");
}

}  // namespace

std::vector<StudentRecord> merge_outputs(const std::vector<fs::path>& shard_outs, const fs::path& out,
                                         const ExerciseSet& set, std::vector<std::string>* warnings, Lang lang) {
    Gathered g;
    const std::string exercises = exercises_fingerprint(set);
    for (const fs::path& dir : shard_outs) gather(dir, exercises, g, warnings);
    if (warnings) warn_missing_shards(g, *warnings);

    if (!fs::exists(out)) make_private_folder(out);
    const OutputLock lock(out);
    fs::create_directories(out / "results");
    fs::create_directories(out / "gradescope");
    std::vector<StudentRecord> merged;
    for (auto& [student, record] : g.students) {
        const fs::path source_dir = g.from[student];
        const std::string file = student_file_stem(student) + ".json";
        if (!fs::equivalent(source_dir, out)) {
            write_file_atomically(out / "results" / file,
                                  read_folder_file_if_present(source_dir / "results", file, max_json_file_bytes)
                                      .value_or(dump_json(student_json(record))));
            const auto gradescope = read_folder_file_if_present(source_dir / "gradescope", file, max_json_file_bytes);
            write_file_atomically(out / "gradescope" / file, gradescope ? *gradescope : dump_json(gradescope_json(record, lang)));
        }
        merged.push_back(std::move(record));
    }
    write_class_files(out, set, merged, {}, lang);
    write_file_atomically(out / manifest_name, dump_json(run_manifest(set, g.variants.value_or(false), std::nullopt, merged)));
    return merged;
}

}  // namespace blockcheck
