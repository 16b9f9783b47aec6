// Reading and writing the whole text of a file, for the course commands; errors name the file.
#pragma once

#include "checker/common/json_exact.hpp"
#include "checker/grade/gradebook.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace blockcheck {

inline std::string read_text_file(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw InputFileError(file.string() + ": cannot read");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Creates the folders on the way.
inline void write_text_file(const std::filesystem::path& file, const std::string& text) {
    std::filesystem::create_directories(file.parent_path());
    write_file_atomically(file, text);
}

}  // namespace blockcheck
