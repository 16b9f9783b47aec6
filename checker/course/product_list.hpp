// What blockcheck is made of: data/release/product.txt, one list read by the build, the root
// script's up-to-date check, `gradescope-package`, `release` and the Docker recipe.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace blockcheck {

// One line of data/release/product.txt.
struct ProductEntry {
    std::string edition;  // both, full or student
    std::string kind;     // sources, main, build, data or templates
    std::string path;     // relative to the repository
    int line = 0;
};

// The entries of `root`/data/release/product.txt. A line of another form, or a path that names
// nothing, is an InputFileError naming the file and line.
std::vector<ProductEntry> read_product_list(const std::filesystem::path& root);

// Whether an entry belongs to `edition` ("full" or "student"): its own and the `both` entries.
bool in_edition(const ProductEntry& entry, const std::string& edition);

// The files under one entry's path (the path itself when it is a file), relative to `root`,
// sorted; hidden files and folders inside a folder are left out.
std::vector<std::filesystem::path> entry_files(const std::filesystem::path& root, const ProductEntry& entry);

// The files the full edition is made of (every `both` and `full` entry), relative to `root`,
// sorted, each once: what the Gradescope zip and the Docker image carry.
std::vector<std::filesystem::path> full_edition_files(const std::filesystem::path& root);

}  // namespace blockcheck
