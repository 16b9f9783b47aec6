// The template record: data/templates/CHAPTER.json holds each exercise's program as the student
// edition ships it (`release`), written by `new` and checked by `validate`. chapters/ is the
// working copy, which an instructor may have solved: nothing ships from it.
#pragma once

#include "checker/exercise/exercise_set.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace blockcheck {

// data/templates/CHAPTER.json, relative to the repository.
std::string template_record_file(const std::string& chapter);

// The recorded template of one exercise, or nothing when its chapter's record has none; a
// malformed record is an InputFileError naming the file and field.
std::optional<std::string> recorded_template(const std::filesystem::path& root, const Exercise& e);

// Records (or replaces) one program's template in its chapter's record.
void record_template(const std::filesystem::path& root, const std::string& chapter, const std::string& file_name,
                     const std::string& text);

// A recorded template written as a program file of its own (TMP/blockcheck-template-XXXXXX/FILE),
// for `validate` to compile and run; the folder is removed with the object.
class TemplateProgram {
public:
    TemplateProgram(const std::string& file_name, const std::string& text);
    ~TemplateProgram();
    TemplateProgram(const TemplateProgram&) = delete;
    TemplateProgram& operator=(const TemplateProgram&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path folder_, path_;
};

// The files of chapters/ the student edition does not take from the working copy as they are,
// relative to the repository, sorted: a program of an exercise of `exercises` that differs from
// its recorded template (the template ships instead), and a file that is no exercise's program
// (no record names it) nor one of `shipped` (what the edition carries as it is, such as
// chapters/blockcheck.hpp). Programs of exercises outside `exercises` are left out unnamed.
struct WorkingCopyFile {
    std::string path;
    bool differs = false;  // true: differs from its template; false: no exercise's program
};
std::vector<WorkingCopyFile> working_copy_not_shipped(const std::filesystem::path& root, const ExerciseSet& exercises,
                                                     const std::vector<std::filesystem::path>& shipped);

}  // namespace blockcheck
