#include "checker/common/submission_file.hpp"

#include "checker/common/detail/checked_open.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace blockcheck {

namespace fs = std::filesystem;

namespace {

Text link_problem(const std::string& shown) {
    return {shown + " is a link; links are not graded; hand in the file",
            shown + " 是链接；链接不评分；请提交文件本身"};
}

// The one read of a submission's file: `relative` beneath `dirfd`, shown as `shown`, through the
// one checked opener (detail/checked_open.hpp).
SubmissionRead read_beneath(int dirfd, const std::string& relative, const std::string& shown, std::uintmax_t max_bytes,
                            Links links) {
    SubmissionRead result;
    const CheckedFile opened = open_checked(dirfd, relative, links == Links::refuse ? LinkRule::none : LinkRule::any);
    if (opened.refusal == Refusal::link) return result.problem = link_problem(shown), result;
    if (opened.refusal != Refusal::none)
        return result.problem = refusal_text(opened, shown, {"the submission", "提交"}), result;
    if (opened.size > max_bytes)
        return result.problem = {shown + " is larger than " + std::to_string(max_bytes >> 10) + " KiB: not read",
                                 shown + " 超过 " + std::to_string(max_bytes >> 10) + " KiB：未读取"},
               result;
    auto bytes = read_up_to(opened.fd.get(), opened.size);
    if (!bytes)
        return result.problem = {shown + ": cannot read (" + std::strerror(errno) + ")",
                                 shown + "：无法读取（" + std::strerror(errno) + "）"},
               result;
    if (opened.through_link)
        result.note = {shown + " is a link: read here, but the grader does not follow links; hand in the file",
                       shown + " 是链接：此处已读取，但评分时不跟随链接；请提交文件本身"};
    const Digest hash = content_hash(*bytes);
    result.file = SubmissionFile{relative, std::move(*bytes), hash};
    return result;
}

bool header_name(const std::string& name) {
    const std::string ext = fs::path(name).extension().string();
    return ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".hxx";
}

// The names of the header files directly in the folder `dirfd`, sorted.
std::vector<std::string> header_names(int dirfd) {
    std::vector<std::string> names;
    const int listing = ::openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (listing < 0) return names;
    DIR* dir = ::fdopendir(listing);
    if (!dir) {
        ::close(listing);
        return names;
    }
    while (const dirent* entry = ::readdir(dir))
        if (header_name(entry->d_name)) names.emplace_back(entry->d_name);
    ::closedir(dir);
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

void use_openat2_for_submissions(bool allowed) { use_openat2(allowed); }

SubmissionRead open_submission_file(const fs::path& folder, const std::string& relative, std::uintmax_t max_bytes,
                                    Links links) {
    const Fd root(::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!root) {
        SubmissionRead result;
        result.problem = {relative + ": the submission's folder cannot be opened", relative + "：无法打开提交的文件夹"};
        return result;
    }
    return read_beneath(root.get(), relative, relative, max_bytes, links);
}

SubmittedProgram read_program(const fs::path& folder, const std::string& relative_source, Links links) {
    SubmittedProgram program;
    const Fd root(::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!root) {
        program.problem = {relative_source + ": the submission's folder cannot be opened",
                           relative_source + "：无法打开提交的文件夹"};
        return program;
    }
    SubmissionRead source = read_beneath(root.get(), relative_source, relative_source, max_submitted_source_bytes, links);
    if (!source.file) {
        program.problem = source.problem;
        return program;
    }
    program.source = std::move(*source.file);
    if (!source.note.en.empty()) program.notes.push_back(source.note);
    const std::size_t slash = relative_source.rfind('/');
    const std::string beside = slash == std::string::npos ? "" : relative_source.substr(0, slash + 1);
    const Fd dir(beside.empty() ? ::openat(root.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                                : open_no_links(root.get(), beside.substr(0, beside.size() - 1), O_RDONLY | O_DIRECTORY));
    if (!dir) return program;
    std::uintmax_t total = 0;
    for (const std::string& name : header_names(dir.get())) {
        if (program.headers.size() == max_submitted_headers) {
            program.notes.push_back({"more than " + std::to_string(max_submitted_headers) + " headers beside " + relative_source +
                                         ": the rest were not read",
                                     relative_source + " 旁的头文件超过 " + std::to_string(max_submitted_headers) + " 个：其余未读取"});
            break;
        }
        SubmissionRead header = read_beneath(dir.get(), name, beside + name, max_submitted_header_bytes, links);
        if (header.file && total + header.file->size() > max_submitted_headers_bytes)
            header = {{}, {beside + name + ": the headers beside the source pass 4 MiB together: not read",
                           beside + name + "：源文件旁的头文件合计超过 4 MiB：未读取"}, {}};
        if (!header.note.en.empty()) program.notes.push_back(header.note);
        if (!header.file) {
            program.notes.push_back(header.problem);
            continue;
        }
        total += header.file->size();
        header.file->name = beside + name;
        program.headers.push_back(std::move(*header.file));
    }
    return program;
}

std::string notes_text(const std::vector<Text>& notes, Lang lang) {
    std::string text;
    for (const Text& note : notes) text += note.in(lang) + "\n";
    return text;
}

}  // namespace blockcheck
