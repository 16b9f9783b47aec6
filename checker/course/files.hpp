// Writing a whole text file for the course commands: the folders on the way are created.
#pragma once

#include "checker/common/files.hpp"

#include <filesystem>
#include <string>

namespace blockcheck {

inline void write_text_file(const std::filesystem::path& file, const std::string& text) {
    std::filesystem::create_directories(file.parent_path());
    write_file_atomically(file, text);
}

}  // namespace blockcheck
