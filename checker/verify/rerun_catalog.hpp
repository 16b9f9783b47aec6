// The worked examples `rerun` replays and `verify` checks: their ids, and how each is computed
// from the block and the data files (data/part-v/modern-config.json, data/cases/modern-small.json).
#pragma once

#include "solutions/worked/worked.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace blockcheck {

// Every worked example id, in the order `rerun all` prints them.
const std::vector<std::string>& worked_ids();

// The id `name` stands for: an id itself, or an alias ("table-25.1", or the exercise id of a
// worked example such as "swiglu_ffn_2d"); empty when it names none.
std::string resolve_worked_id(const std::string& name);

// Reads the modern configuration with its teaching fields; a bad file is an InputFileError.
template <class T>
ConfigFacts<T> read_config_facts(const std::filesystem::path& file);

// Computes worked example `id` (as resolve_worked_id returns it) at T's precision, reading the
// data files under `root`. A bad data file is an InputFileError; an unknown id std::out_of_range.
template <class T>
Worked<T> compute_worked(const std::string& id, const std::filesystem::path& root);

}  // namespace blockcheck
