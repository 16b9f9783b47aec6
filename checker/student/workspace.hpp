// The student's side of the repository: the exercises, where their programs live, the build
// cache and the small state blockcheck keeps between runs (.blockcheck/).
#pragma once

#include "checker/exercise/grading.hpp"

#include <nlohmann/json.hpp>

namespace blockcheck {

class Workspace {
public:
    explicit Workspace(const std::filesystem::path& root);

    const std::filesystem::path& root() const { return root_; }
    const ExerciseSet& exercises() const { return exercises_; }
    const RunSettings& settings() const { return settings_; }
    std::filesystem::path source_of(const Exercise& e) const { return root_ / e.source; }

    // The exercises named, or all when `ids` is empty; an unknown id is an InputFileError.
    std::vector<const Exercise*> select(const std::vector<std::string>& ids) const;

    // Checks each program (compiling only what changed, two at a time) on its book inputs or
    // the given variant; remembers the statuses for `list`.
    std::vector<ExerciseResult> check(const std::vector<const Exercise*>& which, const AnswerCompareOptions& options,
                                      std::optional<std::uint64_t> variant = {}) const;

    // Status per exercise id from the last check ("not_checked" before any).
    std::string last_status(const std::string& id) const;
    // How many hints of an exercise were shown; `shown` records one more.
    int hints_shown(const std::string& id) const;
    void record_hint(const std::string& id, int shown) const;

private:
    nlohmann::json read_state(const std::string& name) const;
    void write_state(const std::string& name, const nlohmann::json& value) const;

    std::filesystem::path root_;
    ExerciseSet exercises_;
    RunSettings settings_;
};

}  // namespace blockcheck
