// A fresh temporary folder for one test, removed with everything in it at the end.
#pragma once

#include <atomic>
#include <filesystem>
#include <string>
#include <system_error>

#include <unistd.h>

namespace blockcheck::testing {

struct TempDir {
    std::filesystem::path path;

    explicit TempDir(const std::string& tag) {
        static std::atomic<int> counter{0};
        path = std::filesystem::temp_directory_path() /
               ("blockcheck-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

}  // namespace blockcheck::testing
