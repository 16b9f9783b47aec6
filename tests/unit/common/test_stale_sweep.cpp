// The one stale sweep: leftovers named after a process that is gone go at once; with an age,
// leftovers whose names do not say their maker go once older than it; nothing else is touched.
#include "checker/common/stale_sweep.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <set>

#include <unistd.h>

using namespace blockcheck;
namespace fs = std::filesystem;

TEST_CASE("sweep_stale: by the maker's pid, and by age where a name holds none") {
    testing::TempDir dir("stale-sweep");
    const std::string me = std::to_string(::getpid()), gone = "999999999";  // above any pid_max
    const auto touch = [&](const std::string& name, std::chrono::hours age) {
        std::ofstream(dir.path / name) << "x";
        fs::last_write_time(dir.path / name, fs::file_time_type::clock::now() - age);
    };
    touch(".tmp-" + gone + "-3-ada.json", std::chrono::hours(0));  // a killed writer's half-written file
    touch(".tmp-" + me + "-4-ada.json", std::chrono::hours(5));    // this process's own, however old
    touch("build-5e0f-" + gone + "-1", std::chrono::hours(2));     // no pid after the prefix: by age
    touch("build-steps-" + me + "-2", std::chrono::hours(0));      // young
    touch("results.json", std::chrono::hours(9));                  // not a leftover's name
    sweep_stale(dir.path, ".tmp-");
    sweep_stale(dir.path, "build-", std::chrono::hours(1));
    std::set<std::string> left;
    for (const auto& entry : fs::directory_iterator(dir.path)) left.insert(entry.path().filename().string());
    CHECK(left == std::set<std::string>{".tmp-" + me + "-4-ada.json", "build-steps-" + me + "-2", "results.json"});
    // Without an age, names that hold no pid stay whatever their age.
    touch("build-5e0f-" + gone + "-1", std::chrono::hours(2));
    sweep_stale(dir.path, "build-");
    CHECK(fs::exists(dir.path / ("build-5e0f-" + gone + "-1")));
    sweep_stale(dir.path / "missing", "build-", std::chrono::hours(1));  // a missing folder: nothing, no throw
}
