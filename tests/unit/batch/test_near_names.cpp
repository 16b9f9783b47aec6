// grade --accept-near-names against a hostile submission (issue 40's red team): thousands of
// misnamed files with long names cost little (a name far longer than every exercise's is never
// measured, and only the first 500 strays by path are compared), and a stray never takes an
// exercise that has a file of its own.
#include "checker/batch/discovery.hpp"
#include "checker/exercise/grading.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <fstream>

#include "exercise_testing.hpp"
#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

void touch_source(const fs::path& file) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << "int main() {}\n";
}

}  // namespace

TEST_CASE("near names: 3,000 strays of 250-byte names are cheap, capped, and cannot displace a real file") {
    const ExerciseSet& set = testing::shipped_exercises();
    testing::TempDir dir("near-names");
    const fs::path sub = dir.path / "eve";
    touch_source(sub / "a" / "swiglu_ffn2d.cpp");                   // near swiglu_ffn_2d, first by path
    touch_source(sub / "a" / "rope_quarter_turn_table.cpp");        // a real file ...
    touch_source(sub / "a" / "rope_quarter_turn_tabel.cpp");        // ... and a stray near it
    for (int i = 0; i < 3000; ++i) touch_source(sub / "m" / (std::to_string(i) + std::string(246, 'r') + ".cpp"));
    touch_source(sub / "z" / "rms_norm_vs_layer_norn.cpp");         // near, but beyond the first 500 strays

    const auto start = std::chrono::steady_clock::now();
    const Sources found = find_sources(sub, set, true);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(seconds < 2.0);  // 6.7 s for 19,000 such names before the bound (the whole grade of one student)

    auto relative_of = [&](const std::string& id) {
        for (std::size_t i = 0; i < set.all().size(); ++i)
            if (set.all()[i].id == id) return found.relative[i];
        FAIL("no exercise " << id);
        return std::string();
    };
    CHECK(relative_of("swiglu_ffn_2d") == "a/swiglu_ffn2d.cpp");
    CHECK(relative_of("rope_quarter_turn_table") == "a/rope_quarter_turn_table.cpp");  // the stray did not displace it
    CHECK(relative_of("rms_norm_vs_layer_norm").empty());  // beyond the cap: listed as a count, not graded
    CHECK(found.misnamed.size() == max_misnamed_listed);
    CHECK(found.misnamed.size() + found.misnamed_more == 3003);
    bool capped = false;
    for (const std::string& note : found.notes) capped |= note.find("only the first 500") != std::string::npos;
    CHECK(capped);
}

TEST_CASE("near names: a name far longer than every exercise's is near none") {
    const std::vector<std::string> names = {"swiglu_ffn_2d.cpp", "rope_quarter_turn_table.cpp"};
    CHECK_FALSE(closest_name(std::string(250, 'r') + ".cpp", names));
    CHECK(closest_name("swiglu_ffn2d.cpp", names) == "swiglu_ffn_2d.cpp");
}
