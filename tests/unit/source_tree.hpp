// The source tree the tests were built from (data/, chapters/, tests/), and a file's text.
#pragma once

#include "checker/common/files.hpp"

#include <filesystem>
#include <string>

namespace blockcheck::testing {

inline const std::filesystem::path& repository() {
    static const std::filesystem::path root = BLOCKCHECK_SOURCE_DIR;
    return root;
}

// The whole file, or "" when it is missing or unreadable (a test then fails on its content).
inline std::string file_text(const std::filesystem::path& file) { return read_file_if_readable(file).value_or(""); }

}  // namespace blockcheck::testing
