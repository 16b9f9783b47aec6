// prune_cache: the student's compile cache stays bounded, least recently used first, never
// touching what was used in the last hour or what is not a cache entry.
#include "checker/run/cache_prune.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

// Keys are 64 hex digits; 16 in caches of earlier versions, pruned the same way.
const std::string key_a(64, 'a'), key_b(16, 'b'), key_c(64, 'c');

void make_file(const fs::path& path, std::size_t bytes, std::chrono::hours age) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << std::string(bytes, 'x');
    fs::last_write_time(path, fs::file_time_type::clock::now() - age);
}

}  // namespace

TEST_CASE("cache pruning removes the least recently used entries down to three quarters of the limit") {
    testing::TempDir dir("cache-prune");
    const fs::path cache = dir.path;
    using std::chrono::hours;
    make_file(cache / "pch-0123456789abcdef/blockcheck.hpp.gch", 100'000, hours(72));
    fs::last_write_time(cache / "pch-0123456789abcdef", fs::file_time_type::clock::now() - hours(72));
    make_file(cache / key_a, 100'000, hours(48));  // a binary, its log, its seal and a run record
    make_file(cache / (key_a + ".log"), 10, hours(1));
    make_file(cache / (key_a + ".seal"), 10, hours(1));
    make_file(cache / (key_a + ".run-0000000000000001"), 10, hours(0));
    make_file(cache / key_b, 100'000, hours(24));
    make_file(cache / key_c, 100'000, hours(0));  // just used
    make_file(cache / "compiler-0123456789abcdef.txt", 10, hours(100));

    SUBCASE("under the limit nothing goes") {
        CHECK(prune_cache(cache, 1'000'000) == 0);
        CHECK(fs::exists(cache / "pch-0123456789abcdef"));
    }
    SUBCASE("over it, oldest first, a key's files together, until at most 3/4 of the limit") {
        // 400 040 bytes against 250 000: the folder (72 h), then key a (48 h), then key b (24 h)
        CHECK(prune_cache(cache, 250'000) == 100'000 + 100'030 + 100'000);
        CHECK_FALSE(fs::exists(cache / "pch-0123456789abcdef"));
        CHECK_FALSE(fs::exists(cache / key_a));
        CHECK_FALSE(fs::exists(cache / (key_a + ".run-0000000000000001")));
        CHECK_FALSE(fs::exists(cache / (key_a + ".seal")));
        CHECK_FALSE(fs::exists(cache / key_b));
        CHECK(fs::exists(cache / key_c));
        CHECK(fs::exists(cache / "compiler-0123456789abcdef.txt"));
    }
    SUBCASE("an entry used in the last hour stays, however far over the limit") {
        prune_cache(cache, 1);
        CHECK(fs::exists(cache / key_c));
        CHECK_FALSE(fs::exists(cache / key_b));
    }
    SUBCASE("using an entry makes it the newest") {
        touch_cache_entry(cache / key_a);
        prune_cache(cache, 250'000);
        CHECK(fs::exists(cache / key_a));
        CHECK_FALSE(fs::exists(cache / key_b));
    }
}
