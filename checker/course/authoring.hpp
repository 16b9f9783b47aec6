// `blockcheck new`: the files of a new exercise, each a working skeleton the author fills in.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace blockcheck {

struct NewExercise {
    std::string id, chapter, kind = "exercise";  // kind: "exercise" or "worked-example"
};

// Writes the definition (with "_help" texts), the template (in chapters/ and in the chapter's
// template record, data/templates/CHAPTER.json, which `release` ships), the reference skeleton (inserted
// into the registry in solutions/reference_solutions.cpp) and the solved-program skeleton;
// creates the chapter (data/exercises/<chapter>/chapter.json) when it is new. Returns the files
// written or changed, relative to `root`. An id in use, a bad id or chapter name is an
// InputFileError, and then nothing is written.
std::vector<std::string> write_new_exercise(const std::filesystem::path& root, const NewExercise& spec);

}  // namespace blockcheck
