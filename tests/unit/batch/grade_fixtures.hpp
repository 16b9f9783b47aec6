// What the grade tests share: a small repository of two exercises, one compile cache, settings
// for a class run and lookups into its report.
#pragma once

#include "checker/batch/batch.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "temp_dir.hpp"
#include "source_tree.hpp"

namespace blockcheck::grade_fixtures {

namespace fs = std::filesystem;
using testing::file_text;
using testing::repository;
using testing::TempDir;

inline void write(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
}

inline std::string solved(const std::string& name) { return file_text(repository() / "tests/solved/ch25" / (name + ".cpp")); }

// A repository with only two exercises (11 points): fewer programs to build and run.
inline fs::path small_root(const fs::path& dir) {
    const fs::path root = dir / "repo";
    fs::create_directories(root / "data/exercises/ch25");
    for (const char* f : {"chapter.json", "swiglu_ffn_2d.json", "rms_norm_zero_row.json"})
        fs::copy_file(repository() / "data/exercises/ch25" / f, root / "data/exercises/ch25" / f);
    return root;
}

// One compile cache for every test of this file.
inline const fs::path& shared_cache() {
    static TempDir cache("grade-cache");
    return cache.path;
}

inline GradeSettings settings_for(const fs::path& out) {
    GradeSettings s;
    s.include_dir = repository() / "chapters";
    s.out = out;
    s.cache_dir = shared_cache();
    s.jobs = 2;
    s.run_limits.cpu_seconds = 1;
    s.run_limits.wall_seconds = 2;
    return s;
}

inline const StudentRecord& student(const GradeReport& r, const std::string& id) {
    for (const StudentRecord& s : r.students)
        if (s.student == id) return s;
    FAIL("no student " << id);
    throw std::logic_error("unreachable");
}

inline const ExerciseRecord& exercise(const StudentRecord& s, const std::string& id) {
    for (const ExerciseRecord& e : s.exercises)
        if (e.id == id) return e;
    FAIL("no exercise " << id);
    throw std::logic_error("unreachable");
}

}  // namespace blockcheck::grade_fixtures
