#include "checker/batch/discovery.hpp"

#include "checker/batch/archive.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/outputs/student_id.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

namespace blockcheck {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t max_walk_entries = 20000;  // entries looked at in one submission folder
constexpr std::size_t max_strays_named = 500;     // misnamed *.cpp files compared with the exercises' names
constexpr std::size_t max_skipped_named = 10;     // archive entries not unpacked, named one by one in the notes

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

// Entries with the same id, sorted next to each other: one submission with rivals when they are
// in one folder (the student's doing); in two of the folders given, the grader's (InputFileError).
std::vector<Submission> join_rivals(std::vector<Submission> found) {
    std::vector<Submission> joined;
    for (Submission& s : found) {
        if (joined.empty() || joined.back().student != s.student) {
            joined.push_back(std::move(s));
            continue;
        }
        Submission& first = joined.back();
        if (first.path.parent_path() != s.path.parent_path())
            throw InputFileError("two submissions for student '" + printable_id(s.student) + "' in two of the folders given: " +
                                 printable_id(first.path.string()) + " and " + printable_id(s.path.string()));
        first.rivals.push_back(std::move(s.path));
    }
    return joined;
}

}  // namespace

Submission submission_at(const fs::path& path) {
    std::error_code ec;
    const auto status = fs::symlink_status(path, ec);
    const std::string name = path.filename().string();
    if (fs::is_directory(status)) return {name, path, false};
    if (fs::is_regular_file(status) && is_archive_name(name)) return {archive_stem(name), path, true};
    throw InputFileError(printable_id(path.string()) + ": not a submission: give a folder or a .zip, .tar.gz, .tgz or .tar archive");
}

fs::path submission_folder(const Submission& submission, const fs::path& unpack_to, std::vector<std::string>& notes) {
    if (!submission.archive) return submission.path;
    fs::create_directories(unpack_to.parent_path());
    const Unpacked unpacked = extract_archive(submission.path, unpack_to);
    for (std::size_t i = 0; i < unpacked.skipped.size() && i < max_skipped_named; ++i)
        notes.push_back("archive entry " + unpacked.skipped[i]);
    if (unpacked.skipped.size() > max_skipped_named)
        notes.push_back(fmt::format("and {} more entries of the archive not unpacked", unpacked.skipped.size() - max_skipped_named));
    return unpack_to;
}

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
                found.push_back(submission_at(entry.path()));
            }
        }
    }
    if (ignored)
        std::sort(ignored->begin(), ignored->end(), [](const IgnoredEntry& a, const IgnoredEntry& b) { return a.path < b.path; });
    std::sort(found.begin(), found.end(),
              [](const Submission& a, const Submission& b) { return std::tie(a.student, a.path) < std::tie(b.student, b.path); });
    return join_rivals(std::move(found));
}

std::optional<Text> rivals_problem(const Submission& submission) {
    if (submission.rivals.empty()) return std::nullopt;
    std::string names = printable_id(submission.path.filename().string());
    for (std::size_t i = 0; i < submission.rivals.size(); ++i)
        names += (i + 1 == submission.rivals.size() ? " and " : ", ") + printable_id(submission.rivals[i].filename().string());
    std::string zh = printable_id(submission.path.filename().string());
    for (const fs::path& rival : submission.rivals) zh += "、" + printable_id(rival.filename().string());
    const std::string id = printable_id(submission.student);
    return Text{fmt::format("{} submissions for student '{}': {}; none was graded: hand in one of them", submission.rivals.size() + 1,
                            id, names),
                fmt::format("学生“{}”有 {} 份提交：{}；均未评分：请只提交其中一份", id, submission.rivals.size() + 1, zh)};
}

namespace {

// The misnamed files among `strays` (sorted), each with its nearest exercise; with `accept`, one
// near an exercise without a file of its own becomes that exercise's candidate.
void name_strays(std::vector<fs::path> strays, const ExerciseSet& set, bool accept,
                 std::vector<std::vector<fs::path>>& candidates, Sources& found) {
    std::sort(strays.begin(), strays.end());
    std::vector<std::string> names;
    for (const Exercise& e : set.all()) names.push_back(e.file_name());
    if (strays.size() > max_strays_named) {
        found.notes.push_back(fmt::format("{} files named after no exercise: only the first {} (by path) were compared with the "
                                          "exercises' names",
                                          strays.size(), max_strays_named));
        found.misnamed_more += strays.size() - max_strays_named;
        strays.resize(max_strays_named);
    }
    for (const fs::path& relative : strays) {
        MisnamedFile m{relative.generic_string(), closest_name(relative.filename().string(), names).value_or(""), ""};
        const auto near = std::find(names.begin(), names.end(), m.nearest);
        const std::size_t i = static_cast<std::size_t>(near - names.begin());
        if (accept && near != names.end() && candidates[i].empty()) {
            candidates[i].push_back(relative);
            m.graded_as = set.all()[i].id;
        }
        if (found.misnamed.size() < max_misnamed_listed) found.misnamed.push_back(std::move(m));
        else ++found.misnamed_more;
    }
}

}  // namespace

Sources find_sources(const fs::path& folder, const ExerciseSet& set, bool accept_near_names) {
    const std::vector<std::string>& book_names = set.every_file_name();
    std::vector<fs::path> strays;  // *.cpp files named after no exercise of the book
    std::map<std::string, std::vector<std::size_t>> by_name;
    for (std::size_t i = 0; i < set.all().size(); ++i) by_name[set.all()[i].file_name()].push_back(i);
    std::vector<std::vector<fs::path>> candidates(set.all().size());
    std::vector<std::vector<fs::path>> unread(set.all().size());  // of the exercise's name, but a link or not a regular file
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
        const fs::path relative = entry.path().lexically_relative(folder);
        if (match == by_name.end()) {
            const bool stray = name.ends_with(".cpp") && fs::is_regular_file(status) &&
                               std::find(book_names.begin(), book_names.end(), name) == book_names.end();
            if (stray) strays.push_back(relative);
            continue;
        }
        if (fs::is_symlink(status) || !fs::is_regular_file(status)) {
            found.notes.push_back(relative.generic_string() +
                                  (fs::is_symlink(status) ? " is a link; links are not graded; hand in the file"
                                                          : " is not a regular file: ignored"));
            for (std::size_t i : match->second) unread[i].push_back(relative);
            continue;
        }
        for (std::size_t i : match->second) candidates[i].push_back(relative);
    }
    name_strays(std::move(strays), set, accept_near_names, candidates, found);
    found.file.resize(set.all().size());
    found.relative.resize(set.all().size());
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        // No regular file of its name: the best placed link or special file stands for it, so that
        // read_program refuses it by name on every part (not "no file named ...").
        auto& c = candidates[i].empty() ? unread[i] : candidates[i];
        if (c.empty()) continue;
        const Exercise& e = set.all()[i];
        std::sort(c.begin(), c.end(), [&](const fs::path& a, const fs::path& b) { return rank(e, a) < rank(e, b); });
        found.relative[i] = c.front().generic_string();
        found.file[i] = folder / c.front();
        if (c.size() > 1 && !candidates[i].empty())
            found.notes.push_back(fmt::format("{} files named {}; graded {}", c.size(), e.file_name(), found.relative[i]));
    }
    return found;
}

}  // namespace blockcheck
