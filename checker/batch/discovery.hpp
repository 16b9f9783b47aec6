// Finding what to grade: the submissions in a class's folders (folders or archives, one a
// student), and in one submission the source file of each exercise.
#pragma once

#include "checker/exercise/exercise_set.hpp"
#include "checker/outputs/gradebook.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace blockcheck {

// One student's submission: a folder, or a .zip / .tar.gz / .tgz / .tar archive.
struct Submission {
    std::string student;          // the folder's name, or the archive's without its extension
    std::filesystem::path path;
    bool archive = false;
    // Other entries of the same folder with the same id (bob/ beside bob.tgz), by path: the
    // student handed in more than one, none is graded and their result says so, naming each.
    std::vector<std::filesystem::path> rivals;
};

// Every entry of every folder in `dirs` that is a folder or an archive, sorted by student id.
// Every other entry (hidden names such as "..zip" or "...dots", links, other files) is listed in
// `ignored` with the reason, sorted by path. Entries of one folder with the same id (say ada/ and
// ada.zip) are one submission with `rivals`, the student's error; the same id in two of `dirs`,
// or a folder that does not exist, is an InputFileError (the folders given overlap).
std::vector<Submission> find_submissions(const std::vector<std::filesystem::path>& dirs,
                                         std::vector<IgnoredEntry>* ignored = nullptr);

// "2 submissions for student 'bob': bob and bob.tgz; none was graded: hand in one of them" in
// each language, when the submission has rivals; nullopt otherwise.
std::optional<Text> rivals_problem(const Submission& submission);

// The submission at `path`, a folder or an archive, with the id find_submissions gives it; an
// InputFileError when it is neither.
Submission submission_at(const std::filesystem::path& path);

// The folder a submission is read from: the folder itself, or the archive unpacked into
// `unpack_to` (a bad archive is an ArchiveError). Every reader of submissions goes through here,
// so one opener serves grading and a TA's look at one student. `notes` gets what was not unpacked.
std::filesystem::path submission_folder(const Submission& submission, const std::filesystem::path& unpack_to,
                                        std::vector<std::string>& notes);

// Where each exercise's program is in one (unpacked) submission.
struct Sources {
    std::vector<std::filesystem::path> file;  // per exercise of the set; empty path: not found
    std::vector<std::string> relative;        // the same, relative to the submission
    std::vector<std::string> notes;           // links ignored, several candidates, a folder too big to search
    std::vector<MisnamedFile> misnamed;       // *.cpp files named after no exercise, the first max_misnamed_listed
    std::size_t misnamed_more = 0;            // those beyond
};

// Misnamed files listed in one student's feedback; the rest are counted.
constexpr std::size_t max_misnamed_listed = 10;

// Walks `folder` without following links (hidden folders and __MACOSX skipped, at most 20000
// entries); a regular file of an exercise's name is a candidate, and of several the best placed
// wins: the full path chapters/ch25/x.cpp beats ch25/x.cpp beats anywhere, then shallower, then by name.
// A link or special file of that name is noted; with no regular file of the name it stands as the
// exercise's file, so that read_program refuses it by name (the exercise's parts say why).
// A *.cpp file named after no exercise of the book is listed in `misnamed` with the closest
// exercise file name of the set; with `accept_near_names` it is graded as that exercise when the
// exercise has no file of its own name. Only the first 500 such files by path are compared.
Sources find_sources(const std::filesystem::path& folder, const ExerciseSet& set, bool accept_near_names = false);

}  // namespace blockcheck
