#include "checker/course/product_list.hpp"

#include "checker/common/files.hpp"
#include "base/errors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <sstream>

namespace blockcheck {

namespace fs = std::filesystem;

std::vector<ProductEntry> read_product_list(const fs::path& root) {
    static const std::set<std::string> editions = {"both", "full", "student"};
    static const std::set<std::string> kinds = {"sources", "main", "build", "data", "templates"};
    const fs::path list = root / "data" / "release" / "product.txt";
    std::istringstream text(read_file(list));
    std::vector<ProductEntry> entries;
    std::string line;
    for (int number = 1; std::getline(text, line); ++number) {
        if (line.empty() || line.front() == '#') continue;
        ProductEntry entry;
        std::istringstream fields(line);
        std::string rest;
        fields >> entry.edition >> entry.kind >> entry.path >> rest;
        entry.line = number;
        const std::string where = fmt::format("{}:{}", list.string(), number);
        if (!editions.count(entry.edition) || !kinds.count(entry.kind))
            throw InputFileError(where + ": expected `both|full|student sources|main|build|data|templates PATH`, got '" +
                                 line + "'");
        if (entry.path.empty() || !rest.empty() || fs::path(entry.path).is_absolute() || entry.path.find("..") != std::string::npos)
            throw InputFileError(where + ": expected one path inside the repository after '" + entry.kind + "'");
        if (!fs::exists(root / entry.path)) throw InputFileError(where + ": " + entry.path + ": no such file or folder");
        entries.push_back(entry);
    }
    return entries;
}

bool in_edition(const ProductEntry& entry, const std::string& edition) {
    return entry.edition == "both" || entry.edition == edition;
}

std::vector<fs::path> entry_files(const fs::path& root, const ProductEntry& entry) {
    if (!fs::is_directory(root / entry.path)) return {fs::path(entry.path)};
    std::vector<fs::path> files;
    for (auto it = fs::recursive_directory_iterator(root / entry.path); it != fs::recursive_directory_iterator(); ++it) {
        if (it->path().filename().string().starts_with(".")) {
            if (it->is_directory()) it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file()) files.push_back(fs::relative(it->path(), root));
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<fs::path> full_edition_files(const fs::path& root) {
    std::set<fs::path> files;
    for (const ProductEntry& entry : read_product_list(root))
        if (in_edition(entry, "full"))
            for (fs::path& file : entry_files(root, entry)) files.insert(std::move(file));
    return {files.begin(), files.end()};
}

}  // namespace blockcheck
