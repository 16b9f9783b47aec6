// prune_cache: the compile caches stay bounded, least recently used first, never touching what
// was used recently or what is not a cache entry; a grading run's shares per student.
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

TEST_CASE("cache shares: a student who passes their share loses their own entries, never another's") {
    testing::TempDir dir("cache-share");
    const fs::path cache = dir.path;
    using std::chrono::hours;
    CacheShares shares(1000);
    const std::string k1(64, '1'), k2(64, '2'), k3(64, '3');
    make_file(cache / k1, 400, hours(0));
    make_file(cache / (k1 + ".seal"), 10, hours(0));
    make_file(cache / k2, 400, hours(0));  // another student's
    CHECK(shares.charge("mallory", {cache / k1, cache / (k1 + ".seal")}) == 0);  // 410 of 1000
    CHECK(shares.charge("ada", {cache / k2}) == 0);
    make_file(cache / k3, 700, hours(0));
    CHECK(shares.charge("mallory", {cache / k3}) == 1110);  // 1110 > 1000: all of mallory's go
    CHECK_FALSE(fs::exists(cache / k1));
    CHECK_FALSE(fs::exists(cache / (k1 + ".seal")));
    CHECK_FALSE(fs::exists(cache / k3));
    CHECK(fs::exists(cache / k2));
    make_file(cache / k1, 10, hours(0));  // over the share, what mallory stores next goes at once
    CHECK(shares.charge("mallory", {cache / k1}) == 10);
    CHECK_FALSE(fs::exists(cache / k1));
}

TEST_CASE("cache pruning with a short spare time removes entries a grading run finished with") {
    testing::TempDir dir("cache-prune-spare");
    const fs::path cache = dir.path;
    const std::string k1(64, '4'), k2(64, '5');
    make_file(cache / k1, 1000, std::chrono::hours(0));
    fs::last_write_time(cache / k1, fs::file_time_type::clock::now() - std::chrono::minutes(10));
    make_file(cache / k2, 1000, std::chrono::hours(0));
    CHECK(prune_cache(cache, 1500) == 0);  // the hour's sparing keeps both
    CHECK(prune_cache(cache, 1500, std::chrono::minutes(2)) == 1000);
    CHECK_FALSE(fs::exists(cache / k1));
    CHECK(fs::exists(cache / k2));
}
