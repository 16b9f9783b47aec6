#include "checker/compile/compile_area.hpp"

#include "checker/common/stale_sweep.hpp"
#include "checker/compile/compile.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace blockcheck {

namespace fs = std::filesystem;

namespace {

constexpr const char* area_prefix = "blockcheck-compile-area-";

// A new folder `prefix<pid>-XXXXXX` under the temporary folder, 0711.
fs::path new_area() {
    const fs::path tmp = fs::temp_directory_path();
    blockcheck::sweep_stale(tmp, area_prefix);  // qualified: compile.cpp has a sweep_stale of its own
    std::string name = (tmp / (area_prefix + std::to_string(::getpid()) + "-XXXXXX")).string();
    if (!::mkdtemp(name.data())) throw std::runtime_error("cannot make a compile area in " + tmp.string() + ": " + std::strerror(errno));
    if (::chmod(name.c_str(), 0711) != 0) throw std::runtime_error("cannot open " + name + " to the compiler's uid");
    return name;
}

// The regular files directly in `from`, copied into `to` readable by everyone.
void copy_headers(const fs::path& from, const fs::path& to) {
    fs::create_directory(to);
    fs::permissions(to, fs::perms(0755));
    for (const auto& entry : fs::directory_iterator(from)) {
        if (!entry.is_regular_file()) continue;
        const fs::path copy = to / entry.path().filename();
        fs::copy_file(entry.path(), copy, fs::copy_options::overwrite_existing);
        fs::permissions(copy, fs::perms(0644));
    }
}

}  // namespace

CompileArea::CompileArea(const fs::path& include_dir, const fs::path& cache_dir)
    : include_dir_(include_dir), cache_dir_(cache_dir) {
    if (compile_folders_closed(include_dir, cache_dir).empty()) return;
    area_ = new_area();
    try {
        if (!include_dir.empty()) {
            const fs::path normal = fs::absolute(include_dir).lexically_normal();
            const fs::path name = normal.filename().empty() ? normal.parent_path().filename() : normal.filename();
            include_dir_ = area_ / (name.empty() ? fs::path("include") : name);  // diagnostics name the folder
            copy_headers(include_dir, include_dir_);
        }
        cache_dir_ = area_ / "cache";
        fs::create_directory(cache_dir_);
        fs::permissions(cache_dir_, fs::perms(0711));
    } catch (...) {
        std::error_code ignored;
        fs::remove_all(area_, ignored);
        throw;
    }
}

CompileArea::~CompileArea() {
    if (area_.empty()) return;
    std::error_code ignored;
    fs::remove_all(area_, ignored);
}

}  // namespace blockcheck
