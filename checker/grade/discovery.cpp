#include "checker/grade/discovery.hpp"

#include "checker/grade/archive.hpp"
#include "checker/grade/student_id.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

namespace blockcheck {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t max_walk_entries = 20000;  // entries looked at in one submission folder

bool skipped_folder(const std::string& name) { return name.starts_with(".") || name == "__MACOSX"; }

// How well a found file matches where the exercise lives (smaller is better).
std::tuple<int, std::size_t, std::string> rank(const Exercise& e, const fs::path& relative) {
    const std::string rel = relative.generic_string();
    const fs::path source(e.source);
    const std::string full = source.generic_string();
    const std::string chapter = (source.parent_path().filename() / source.filename()).generic_string();
    int place = rel == full || rel.ends_with("/" + full) ? 0 : rel == chapter || rel.ends_with("/" + chapter) ? 1 : 2;
    return {place, static_cast<std::size_t>(std::distance(relative.begin(), relative.end())), rel};
}

// Why an entry of a submissions folder is not a submission; nullopt when it is one.
std::optional<Text> not_a_submission(const std::string& name, fs::file_status status) {
    if (name.starts_with("."))
        return Text{"a hidden name (it starts with a dot)", "隐藏的名字（以点开头）"};
    if (fs::is_symlink(status)) return Text{"a link (links are not followed)", "链接（不跟随链接）"};
    if (fs::is_directory(status)) return std::nullopt;
    if (fs::is_regular_file(status) && is_archive_name(name)) return std::nullopt;
    return Text{"neither a folder nor an archive (.zip, .tar.gz, .tgz, .tar)", "既不是文件夹也不是压缩包（.zip、.tar.gz、.tgz、.tar）"};
}

}  // namespace

std::vector<Submission> find_submissions(const std::vector<fs::path>& dirs, std::vector<IgnoredEntry>* ignored) {
    std::vector<Submission> found;
    for (const fs::path& dir : dirs) {
        if (!fs::is_directory(dir)) throw InputFileError(printable_id(dir.string()) + ": not a folder of submissions");
        for (const auto& entry : fs::directory_iterator(dir)) {
            const std::string name = entry.path().filename().string();
            std::error_code ec;
            const auto status = entry.symlink_status(ec);
            if (auto reason = not_a_submission(name, status)) {
                if (ignored) ignored->push_back({entry.path().string(), *reason});
            } else {
                const bool archive = !fs::is_directory(status);
                found.push_back({archive ? archive_stem(name) : name, entry.path(), archive});
            }
        }
    }
    if (ignored)
        std::sort(ignored->begin(), ignored->end(), [](const IgnoredEntry& a, const IgnoredEntry& b) { return a.path < b.path; });
    std::sort(found.begin(), found.end(), [](const Submission& a, const Submission& b) { return a.student < b.student; });
    for (std::size_t i = 1; i < found.size(); ++i)
        if (found[i].student == found[i - 1].student)
            throw InputFileError("two submissions for student '" + printable_id(found[i].student) + "': " +
                                 printable_id(found[i - 1].path.string()) + " and " + printable_id(found[i].path.string()));
    return found;
}

Sources find_sources(const fs::path& folder, const ExerciseSet& set) {
    std::map<std::string, std::vector<std::size_t>> by_name;
    for (std::size_t i = 0; i < set.all().size(); ++i) by_name[set.all()[i].file_name()].push_back(i);
    std::vector<std::vector<fs::path>> candidates(set.all().size());
    Sources found;
    std::error_code ec;
    fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
    std::size_t seen = 0;
    for (; !ec && it != end; it.increment(ec)) {
        if (++seen > max_walk_entries) {
            found.notes.push_back(fmt::format("more than {} entries in the submission: the rest was not searched",
                                              max_walk_entries));
            break;
        }
        const fs::directory_entry& entry = *it;
        const std::string name = entry.path().filename().string();
        std::error_code type_ec;
        const auto status = entry.symlink_status(type_ec);
        if (fs::is_directory(status)) {
            if (skipped_folder(name)) it.disable_recursion_pending();
            continue;
        }
        auto match = by_name.find(name);
        if (match == by_name.end()) continue;
        const fs::path relative = entry.path().lexically_relative(folder);
        if (fs::is_symlink(status)) {
            found.notes.push_back(relative.generic_string() + " is a link; links are not graded; hand in the file");
            continue;
        }
        if (!fs::is_regular_file(status)) {
            found.notes.push_back(relative.generic_string() + " is not a regular file: ignored");
            continue;
        }
        for (std::size_t i : match->second) candidates[i].push_back(relative);
    }
    found.file.resize(set.all().size());
    found.relative.resize(set.all().size());
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        auto& c = candidates[i];
        if (c.empty()) continue;
        const Exercise& e = set.all()[i];
        std::sort(c.begin(), c.end(), [&](const fs::path& a, const fs::path& b) { return rank(e, a) < rank(e, b); });
        found.relative[i] = c.front().generic_string();
        found.file[i] = folder / c.front();
        if (c.size() > 1)
            found.notes.push_back(fmt::format("{} files named {}; graded {}", c.size(), e.file_name(), found.relative[i]));
    }
    return found;
}

}  // namespace blockcheck
