// A private work area for the compiles of a grading run that a throw-away uid must reach (issue 31):
// as root without bubblewrap (--no-sandbox), with the repository or --out under a folder closed to
// other users (/root is 0700), the uid could read neither the header folder nor the cache.
#pragma once

#include <filesystem>

namespace blockcheck {

// When compile_folders_closed(include_dir, cache_dir) names a folder in the way: a fresh folder
// under the temporary folder (world-searchable), 0711 and the grader's, holding a copy of the
// header folder's files (0755, 0644) and a compile cache of its own for this run; removed with
// the object (and, left by a killed run, by the next one). Otherwise the folders as given.
class CompileArea {
public:
    CompileArea(const std::filesystem::path& include_dir, const std::filesystem::path& cache_dir);
    ~CompileArea();
    CompileArea(const CompileArea&) = delete;
    CompileArea& operator=(const CompileArea&) = delete;

    const std::filesystem::path& include_dir() const { return include_dir_; }
    const std::filesystem::path& cache_dir() const { return cache_dir_; }
    bool moved() const { return !area_.empty(); }  // the run compiles in the work area

private:
    std::filesystem::path area_, include_dir_, cache_dir_;
};

}  // namespace blockcheck
