// The plumbing compile_program's files share: cache files, fresh folders, the inputs that decide
// an entry, and one compile per key at a time in a process.
#include "checker/compile/compile_parts.hpp"

#include "checker/common/files.hpp"
#include "checker/common/hashing.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>

namespace blockcheck::compile_parts {

namespace fs = std::filesystem;

std::string unique_suffix() {
    static std::atomic<unsigned> counter{0};
    return std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

void write_cache_file(const fs::path& target, std::string_view content) {
    try {
        write_file_atomically(target, content);
    } catch (const FileWriteError&) {
    }
}

void fresh_folder(const fs::path& path) {
    std::error_code ec;
    fs::remove_all(path, ec);
    fs::create_directories(path, ec);
}

std::vector<fs::path> header_files(const fs::path& include_dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(include_dir, ec))
        if (entry.is_regular_file(ec)) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

void open_to_others(const fs::path& dir) {
    std::error_code ec;
    // chmod changes a file's ctime even when its mode stays, and a sealed folder's seal binds the
    // ctime of its files: only a mode that differs is changed.
    auto give = [&](const fs::path& path, fs::perms mode) {
        if ((fs::status(path, ec).permissions() & fs::perms::mask) != mode) fs::permissions(path, mode, ec);
    };
    give(dir, fs::perms(0755));
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.is_regular_file(ec)) give(entry.path(), fs::perms(0644));
}

bool succeeded(const RunResult& run) { return run.status == RunStatus::exited && run.exit_code == 0; }

EntryInputs& EntryInputs::add(std::string_view part) {
    text_ += std::to_string(part.size());
    text_ += ':';
    text_ += part;
    return *this;
}

EntryInputs& EntryInputs::add_headers(const fs::path& include_dir) {
    for (const fs::path& header : header_files(include_dir))
        add(header.filename().string()).add(read_file_if_readable(header).value_or("<unreadable>"));
    return *this;
}

std::string EntryInputs::key() const { return hex(content_hash(text_)); }

InFlight::Guard InFlight::acquire(const std::string& key) {
    std::unique_lock lock(mutex_);
    released_.wait(lock, [&] { return !keys_.contains(key); });
    keys_.insert(key);
    return Guard(*this, key);
}

void InFlight::release(const std::string& key) {
    {
        std::lock_guard lock(mutex_);
        keys_.erase(key);
    }
    released_.notify_all();
}

InFlight& in_flight() {
    static InFlight instance;
    return instance;
}

}  // namespace blockcheck::compile_parts
